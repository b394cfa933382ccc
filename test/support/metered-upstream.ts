import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Usage an answer reports, as four numbers the request asks for in its text: `usage=A,B,C,D`. */
export interface AskedUsage {
  readonly a: number;
  readonly b: number;
  readonly c: number;
  readonly d: number;
}

export interface MeteredUpstream {
  readonly url: string;
  /** Answers sent, by the `id=` marker of the request that asked. */
  readonly answered: Map<string, { readonly path: string; readonly usage: AskedUsage | undefined; readonly streamed: boolean }>;
  close(): Promise<void>;
}

/** A 1×1 PNG: images are counted, not looked at. */
const tinyPng = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/**
 * An upstream for metering tests that speaks OpenAI chat, OpenAI Responses, Anthropic messages and
 * OpenAI Images, and reports exactly the usage each request asks for in its text
 * (`usage=A,B,C,D`, read per format below), so a test knows every figure an upstream reported
 * without parsing answers. `slow` in the text holds a stream's end (and its usage) back 600 ms, so
 * a client can leave mid-stream before any usage was sent.
 */
export async function startMeteredUpstream(): Promise<MeteredUpstream> {
  const answered = new Map<string, { path: string; usage: AskedUsage | undefined; streamed: boolean }>();
  const server: Server = createServer((request, response) => {
    void readBody(request).then((text) => answer(request, response, text, answered));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    answered,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

async function answer(request: IncomingMessage, response: ServerResponse, text: string, answered: MeteredUpstream['answered']): Promise<void> {
  const body = JSON.parse(text) as Record<string, unknown>;
  const id = /id=([\w-]+)/.exec(text)?.[1] ?? 'unknown';
  const match = /usage=(\d+),(\d+),(\d+),(\d+)/.exec(text);
  const usage = match === null ? undefined : { a: Number(match[1]), b: Number(match[2]), c: Number(match[3]), d: Number(match[4]) };
  const streamed = body.stream === true;
  const slow = text.includes('slow');
  const path = request.url ?? '';
  answered.set(id, { path, usage, streamed });
  const u = usage ?? { a: 1, b: 0, c: 1, d: 0 };
  if (path === '/v1/images/generations') {
    const n = typeof body.n === 'number' ? body.n : 1;
    return json(response, { created: 1, data: Array.from({ length: n }, () => ({ b64_json: tinyPng })), quality: body.quality, size: body.size, output_format: 'png', background: 'opaque' });
  }
  if (path === '/v1/chat/completions') {
    // a: prompt tokens, b: of which cached, c: completion tokens, d: of which reasoning.
    const wire = { prompt_tokens: u.a, completion_tokens: u.c, total_tokens: u.a + u.c, prompt_tokens_details: { cached_tokens: u.b }, completion_tokens_details: { reasoning_tokens: u.d } };
    if (!streamed) return json(response, { id: `chatcmpl-${id}`, object: 'chat.completion', created: 1, model: 'up', choices: [{ index: 0, message: { role: 'assistant', content: 'fine' }, finish_reason: 'stop' }], usage: wire });
    const chunk = (extra: Record<string, unknown>) => ({ id: `chatcmpl-${id}`, object: 'chat.completion.chunk', created: 1, model: 'up', ...extra });
    const events = [chunk({ choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] }), chunk({ choices: [{ index: 0, delta: { content: 'fine' }, finish_reason: null }] })];
    const ending = [chunk({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }), ...(asRecord(body.stream_options).include_usage === true ? [chunk({ choices: [], usage: wire })] : [])];
    return sse(response, events.map((event) => `data: ${JSON.stringify(event)}\n\n`), [...ending.map((event) => `data: ${JSON.stringify(event)}\n\n`), 'data: [DONE]\n\n'], slow);
  }
  if (path === '/v1/responses') {
    // a: input tokens, b: of which cached, c: output tokens, d: of which reasoning.
    const wire = { input_tokens: u.a, input_tokens_details: { cached_tokens: u.b }, output_tokens: u.c, output_tokens_details: { reasoning_tokens: u.d }, total_tokens: u.a + u.c };
    const message = { id: `msg_${id}`, type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: 'fine', annotations: [] }] };
    const object = (status: string, extra: Record<string, unknown>) => ({ id: `resp_${id}`, object: 'response', created_at: 1, status, model: 'up', output: [], ...extra });
    if (!streamed) return json(response, object('completed', { output: [message], usage: wire }));
    const event = (type: string, sequence: number, extra: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence, ...extra })}\n\n`;
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
    return sse(response, start, end, slow);
  }
  if (path === '/v1/messages') {
    // a: uncached input tokens, b: cache reads, c: output tokens, d: cache writes.
    const usageStart = { input_tokens: u.a, cache_read_input_tokens: u.b, cache_creation_input_tokens: u.d, output_tokens: 1 };
    const message = { id: `msg_${id}`, type: 'message', role: 'assistant', model: 'up', content: [{ type: 'text', text: 'fine' }], stop_reason: 'end_turn', stop_sequence: null };
    if (!streamed) return json(response, { ...message, usage: { ...usageStart, output_tokens: u.c } });
    const event = (type: string, data: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
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
    return sse(response, start, end, slow);
  }
  response.writeHead(404).end();
}

function json(response: ServerResponse, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) });
  response.end(text);
}

async function sse(response: ServerResponse, start: readonly string[], end: readonly string[], slow: boolean): Promise<void> {
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  for (const event of start) response.write(event);
  await new Promise((resolve) => setTimeout(resolve, slow ? 600 : 5));
  if (response.destroyed) return;
  for (const event of end) response.write(event);
  response.end();
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}
