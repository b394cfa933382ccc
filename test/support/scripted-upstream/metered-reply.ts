import { sseEvent } from '../sse.js';
import type { ReceivedRequest } from './received-request.js';
import { pause, type Reply } from './reply.js';

/** Usage an answer reports, as four numbers the request asks for in its text: `usage=A,B,C,D`. */
export interface AskedUsage {
  readonly a: number;
  readonly b: number;
  readonly c: number;
  readonly d: number;
}

/** A 1×1 PNG: images are counted, not looked at. */
const tinyPng = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/** The `id=` marker a request carries in its text, told apart from every other call. */
export function askedId(request: ReceivedRequest): string {
  return /id=([\w-]+)/.exec(request.body)?.[1] ?? 'unknown';
}

/**
 * A script for metering tests that speaks OpenAI chat, OpenAI Responses, Anthropic messages and
 * OpenAI Images, and reports exactly the usage each request asks for in its text
 * (`usage=A,B,C,D`, read per format below), so a test knows every figure an upstream reported
 * without parsing answers. `slow` in the text holds a stream's end (and its usage) back 600 ms, so
 * a client can leave mid-stream before any usage was sent.
 */
export function meteredReply(request: ReceivedRequest): Reply {
  const text = request.body;
  const body = JSON.parse(text) as Record<string, unknown>;
  const id = askedId(request);
  const match = /usage=(\d+),(\d+),(\d+),(\d+)/.exec(text);
  const u = match === null ? { a: 1, b: 0, c: 1, d: 0 } : { a: Number(match[1]), b: Number(match[2]), c: Number(match[3]), d: Number(match[4]) };
  const streamed = body.stream === true;
  const held = pause(text.includes('slow') ? 600 : 5);
  const json = (answer: unknown): Reply => {
    const serialized = JSON.stringify(answer);
    return { body: serialized, headers: { 'content-length': String(Buffer.byteLength(serialized)) } };
  };
  if (request.path === '/v1/images/generations') {
    const n = typeof body.n === 'number' ? body.n : 1;
    return json({ created: 1, data: Array.from({ length: n }, () => ({ b64_json: tinyPng })), quality: body.quality, size: body.size, output_format: 'png', background: 'opaque' });
  }
  if (request.path === '/v1/chat/completions') {
    // a: prompt tokens, b: of which cached, c: completion tokens, d: of which reasoning.
    const wire = { prompt_tokens: u.a, completion_tokens: u.c, total_tokens: u.a + u.c, prompt_tokens_details: { cached_tokens: u.b }, completion_tokens_details: { reasoning_tokens: u.d } };
    if (!streamed) return json({ id: `chatcmpl-${id}`, object: 'chat.completion', created: 1, model: 'up', choices: [{ index: 0, message: { role: 'assistant', content: 'fine' }, finish_reason: 'stop' }], usage: wire });
    const chunk = (extra: Record<string, unknown>) => sseEvent({ data: { id: `chatcmpl-${id}`, object: 'chat.completion.chunk', created: 1, model: 'up', ...extra } });
    const start = [chunk({ choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] }), chunk({ choices: [{ index: 0, delta: { content: 'fine' }, finish_reason: null }] })];
    const usage = asRecord(body.stream_options).include_usage === true ? [chunk({ choices: [], usage: wire })] : [];
    const end = [chunk({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }), ...usage, sseEvent({ data: '[DONE]' })];
    return { pieces: [...start, held, ...end] };
  }
  if (request.path === '/v1/responses') {
    // a: input tokens, b: of which cached, c: output tokens, d: of which reasoning.
    const wire = { input_tokens: u.a, input_tokens_details: { cached_tokens: u.b }, output_tokens: u.c, output_tokens_details: { reasoning_tokens: u.d }, total_tokens: u.a + u.c };
    const message = { id: `msg_${id}`, type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: 'fine', annotations: [] }] };
    const object = (status: string, extra: Record<string, unknown>) => ({ id: `resp_${id}`, object: 'response', created_at: 1, status, model: 'up', output: [], ...extra });
    if (!streamed) return json(object('completed', { output: [message], usage: wire }));
    const event = (type: string, sequence: number, extra: Record<string, unknown>) => sseEvent({ event: type, data: { type, sequence_number: sequence, ...extra } });
    const start = [
      event('response.created', 0, { response: object('in_progress', { usage: null }) }),
      event('response.output_item.added', 1, { output_index: 0, item: { ...message, status: 'in_progress', content: [] } }),
      event('response.content_part.added', 2, { output_index: 0, item_id: message.id, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } }),
      event('response.output_text.delta', 3, { output_index: 0, item_id: message.id, content_index: 0, delta: 'fine' }),
    ];
    const end = [
      event('response.output_text.done', 4, { output_index: 0, item_id: message.id, content_index: 0, text: 'fine' }),
      event('response.content_part.done', 5, { output_index: 0, item_id: message.id, content_index: 0, part: message.content[0] }),
      event('response.output_item.done', 6, { output_index: 0, item: message }),
      event('response.completed', 7, { response: object('completed', { output: [message], usage: wire }) }),
    ];
    return { pieces: [...start, held, ...end] };
  }
  if (request.path === '/v1/messages') {
    // a: uncached input tokens, b: cache reads, c: output tokens, d: cache writes.
    const usageStart = { input_tokens: u.a, cache_read_input_tokens: u.b, cache_creation_input_tokens: u.d, output_tokens: 1 };
    const message = { id: `msg_${id}`, type: 'message', role: 'assistant', model: 'up', content: [{ type: 'text', text: 'fine' }], stop_reason: 'end_turn', stop_sequence: null };
    if (!streamed) return json({ ...message, usage: { ...usageStart, output_tokens: u.c } });
    const event = (type: string, data: Record<string, unknown>) => sseEvent({ event: type, data: { type, ...data } });
    const start = [
      event('message_start', { message: { ...message, content: [], stop_reason: null, usage: usageStart } }),
      event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
      event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'fine' } }),
    ];
    const end = [
      event('content_block_stop', { index: 0 }),
      event('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: u.c } }),
      event('message_stop', {}),
    ];
    return { pieces: [...start, held, ...end] };
  }
  return { status: 404, body: '' };
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}
