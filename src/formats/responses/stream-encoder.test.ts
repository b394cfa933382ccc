import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../errors/gateway-error.js';
import type { IrStreamEvent, Usage } from '../../ir/index.js';
import type { EncodeContext } from '../client-format.js';
import { responsesFormat } from './index.js';

const usage: Usage = { inputUncached: 10, cacheRead: 5, cacheWrite: 0, output: 7, reasoning: 3 };

function context(body: Record<string, unknown> = {}): EncodeContext {
  return { requestId: 'req_9', model: 'public-model', request: responsesFormat.decodeRequest({ model: 'alias', input: 'hi', stream: true, ...body }) };
}

interface Frame {
  readonly event: string;
  readonly data: Record<string, unknown>;
}

function frames(sse: string): Frame[] {
  return sse
    .split('\n\n')
    .filter((frame) => frame !== '')
    .map((frame) => {
      const [eventLine, dataLine] = frame.split('\n');
      return { event: eventLine?.slice('event: '.length) ?? '', data: JSON.parse(dataLine?.slice('data: '.length) ?? '{}') as Record<string, unknown> };
    });
}

function encodeAll(events: readonly IrStreamEvent[], encodeContext = context()): string {
  const encoder = responsesFormat.createStreamEncoder(encodeContext);
  return events.map((event) => encoder.encode(event)).join('');
}

async function sdkFinal(sse: string): Promise<OpenAI.Responses.Response> {
  const client = new OpenAI({
    apiKey: 'k',
    baseURL: 'http://gateway.test/v1',
    maxRetries: 0,
    fetch: async () => new Response(sse, { status: 200, headers: { 'content-type': 'text/event-stream' } }),
  });
  return client.responses.stream({ model: 'public-model', input: 'hi' }).finalResponse();
}

const start: IrStreamEvent = { type: 'response-start', id: 'chatcmpl-abc', model: 'upstream', created: 1700000000 };

describe('Responses stream encoder', () => {
  it('writes the full event sequence for reasoning then text, each event named and numbered', () => {
    const sse = encodeAll([
      start,
      { type: 'block-start', index: 0, block: { kind: 'reasoning' } },
      { type: 'block-delta', index: 0, delta: { kind: 'reasoning', text: 'Let me ' } },
      { type: 'block-delta', index: 0, delta: { kind: 'reasoning', text: 'think.' } },
      { type: 'block-end', index: 0, blob: { provider: 'openai', value: 'gAAA' } },
      { type: 'block-start', index: 1, block: { kind: 'text' } },
      { type: 'block-delta', index: 1, delta: { kind: 'text', text: 'Hi' } },
      { type: 'block-delta', index: 1, delta: { kind: 'text', text: '!' } },
      { type: 'block-end', index: 1 },
      { type: 'response-end', finish: { reason: 'stop' }, usage },
    ]);
    const all = frames(sse);
    expect(all.map((frame) => frame.event)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.reasoning_summary_part.added',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.done',
      'response.reasoning_summary_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    all.forEach((frame, index) => {
      expect(frame.data['type']).toBe(frame.event);
      expect(frame.data['sequence_number']).toBe(index);
    });
    expect(all[0]?.data['response']).toMatchObject({ id: 'resp_chatcmpl-abc', object: 'response', status: 'in_progress', output: [], usage: null, model: 'public-model', created_at: 1700000000 });
    expect(all[8]?.data['item']).toEqual({ type: 'reasoning', id: 'rs_chatcmpl-abc_0', summary: [{ type: 'summary_text', text: 'Let me think.' }], encrypted_content: 'gAAA' });
    expect(all[15]?.data['item']).toEqual({
      type: 'message',
      id: 'msg_chatcmpl-abc_1',
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: 'Hi!', annotations: [], logprobs: [] }],
    });
    expect(all[16]?.data['response']).toMatchObject({
      status: 'completed',
      output: [all[8]?.data['item'], all[15]?.data['item']],
      usage: { input_tokens: 15, input_tokens_details: { cached_tokens: 5 }, output_tokens: 10, output_tokens_details: { reasoning_tokens: 3 }, total_tokens: 25 },
    });
  });

  it('writes an encrypted-only reasoning item with an empty summary and no summary events', () => {
    const all = frames(
      encodeAll([
        start,
        { type: 'block-start', index: 0, block: { kind: 'reasoning', itemId: 'rs_up' } },
        { type: 'block-end', index: 0, blob: { provider: 'openai', value: 'enc' } },
        { type: 'response-end', finish: { reason: 'stop' }, usage },
      ]),
    );
    expect(all.map((frame) => frame.event)).toEqual(['response.created', 'response.in_progress', 'response.output_item.added', 'response.output_item.done', 'response.completed']);
    expect(all[3]?.data['item']).toEqual({ type: 'reasoning', id: 'rs_up', summary: [], encrypted_content: 'enc' });
  });

  it('streams parallel tool calls interleaved, each under its own output index, and the SDK assembles them', async () => {
    const sse = encodeAll([
      start,
      { type: 'block-start', index: 0, block: { kind: 'tool-call', id: 'call_a', name: 'weather' } },
      { type: 'block-start', index: 1, block: { kind: 'tool-call', id: 'call_b', name: 'time' } },
      { type: 'block-delta', index: 0, delta: { kind: 'tool-arguments', text: '{"city":' } },
      { type: 'block-delta', index: 1, delta: { kind: 'tool-arguments', text: '{"zone":"UTC"}' } },
      { type: 'block-delta', index: 0, delta: { kind: 'tool-arguments', text: '"Paris"}' } },
      { type: 'block-end', index: 1 },
      { type: 'block-end', index: 0 },
      { type: 'response-end', finish: { reason: 'tool-calls' }, usage },
    ]);
    const all = frames(sse);
    const done = all.filter((frame) => frame.event === 'response.function_call_arguments.done').map((frame) => frame.data);
    expect(done).toEqual([
      expect.objectContaining({ output_index: 1, item_id: 'fc_chatcmpl-abc_1', name: 'time', arguments: '{"zone":"UTC"}' }),
      expect.objectContaining({ output_index: 0, item_id: 'fc_chatcmpl-abc_0', name: 'weather', arguments: '{"city":"Paris"}' }),
    ]);
    const response = await sdkFinal(sse);
    expect(response.output.map((item) => (item.type === 'function_call' ? [item.call_id, item.name, item.arguments] : []))).toEqual([
      ['call_a', 'weather', '{"city":"Paris"}'],
      ['call_b', 'time', '{"zone":"UTC"}'],
    ]);
  });

  it('writes a summary-less reasoning item holding a tool call\'s foreign signature just before the call item', async () => {
    const sse = encodeAll([
      start,
      { type: 'block-start', index: 0, block: { kind: 'tool-call', id: 'call_1', name: 'weather', blob: { provider: 'gemini', value: 'sig-call' } } },
      { type: 'block-delta', index: 0, delta: { kind: 'tool-arguments', text: '{"location":"SF"}' } },
      { type: 'block-end', index: 0 },
      { type: 'response-end', finish: { reason: 'tool-calls' }, usage },
    ]);
    const added = frames(sse).filter((frame) => frame.event === 'response.output_item.added' || frame.event === 'response.output_item.done');
    expect(added.map((frame) => [frame.event, frame.data['output_index'], (frame.data['item'] as Record<string, unknown>)['type']])).toEqual([
      ['response.output_item.added', 0, 'reasoning'],
      ['response.output_item.done', 0, 'reasoning'],
      ['response.output_item.added', 1, 'function_call'],
      ['response.output_item.done', 1, 'function_call'],
    ]);
    const final = await sdkFinal(sse);
    expect(final.output).toEqual([
      { type: 'reasoning', id: 'rs_chatcmpl-abc_0', summary: [], encrypted_content: 'switchyard.v1.gemini.signed.sig-call' },
      expect.objectContaining({ type: 'function_call', call_id: 'call_1', arguments: '{"location":"SF"}' }),
    ]);
  });

  it('streams a custom tool call with its own input events and gives empty function arguments as {}', () => {
    const all = frames(
      encodeAll([
        start,
        { type: 'block-start', index: 0, block: { kind: 'tool-call', id: 'call_p', name: 'apply_patch', toolKind: 'custom', itemId: 'ctc_up' } },
        { type: 'block-delta', index: 0, delta: { kind: 'tool-arguments', text: '*** Begin Patch\n' } },
        { type: 'block-end', index: 0 },
        { type: 'block-start', index: 1, block: { kind: 'tool-call', id: 'call_n', name: 'get_goal' } },
        { type: 'block-end', index: 1 },
        { type: 'response-end', finish: { reason: 'tool-calls' }, usage },
      ]),
    );
    expect(all.map((frame) => frame.event).slice(2, 6)).toEqual([
      'response.output_item.added',
      'response.custom_tool_call_input.delta',
      'response.custom_tool_call_input.done',
      'response.output_item.done',
    ]);
    expect(all[5]?.data['item']).toEqual({ type: 'custom_tool_call', id: 'ctc_up', call_id: 'call_p', name: 'apply_patch', input: '*** Begin Patch\n', status: 'completed' });
    expect(all[8]?.data['item']).toMatchObject({ type: 'function_call', call_id: 'call_n', arguments: '{}', status: 'completed' });
  });

  it('ends a length-limited answer with response.incomplete', async () => {
    const sse = encodeAll([
      start,
      { type: 'block-start', index: 0, block: { kind: 'text' } },
      { type: 'block-delta', index: 0, delta: { kind: 'text', text: 'cut' } },
      { type: 'response-end', finish: { reason: 'length', raw: 'max_tokens' }, usage },
    ]);
    const last = frames(sse).at(-1);
    expect(last?.event).toBe('response.incomplete');
    expect(last?.data['response']).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } });
    const response = await sdkFinal(sse);
    expect(response.status).toBe('incomplete');
    expect(response.output_text).toBe('cut');
  });

  it('ends an upstream error finish with response.failed', () => {
    const last = frames(encodeAll([start, { type: 'response-end', finish: { reason: 'error', raw: 'insufficient_system_resource' }, usage }])).at(-1);
    expect(last?.event).toBe('response.failed');
    expect(last?.data['response']).toMatchObject({ status: 'failed', error: { code: 'server_error' } });
  });

  it('writes an error event then response.failed after a mid-stream error, and nothing after', () => {
    const encoder = responsesFormat.createStreamEncoder(context());
    const sse = [
      start,
      { type: 'block-start', index: 0, block: { kind: 'text' } },
      { type: 'block-delta', index: 0, delta: { kind: 'text', text: 'par' } },
      { type: 'error', error: new GatewayError('upstream_rate_limited', 'Slow down', { upstreamType: 'rate_limit_exceeded' }) },
      { type: 'response-end', finish: { reason: 'stop' }, usage },
    ]
      .map((event) => encoder.encode(event as IrStreamEvent))
      .join('');
    const all = frames(sse);
    expect(all.slice(-2).map((frame) => frame.event)).toEqual(['error', 'response.failed']);
    expect(all.at(-2)?.data).toMatchObject({
      code: 'rate_limit_exceeded',
      message: 'Slow down',
      error: { type: 'rate_limit_exceeded', code: 'rate_limit_exceeded', message: 'Slow down' },
    });
    expect(all.at(-1)?.data['response']).toMatchObject({
      status: 'failed',
      error: { code: 'rate_limit_exceeded', message: 'Slow down' },
      output: [{ type: 'message', status: 'incomplete', content: [{ text: 'par' }] }],
    });
  });

  it('uses the usage event when the end carries none, and starts even without response-start', () => {
    const all = frames(
      encodeAll([
        { type: 'usage', usage },
        { type: 'response-end', finish: { reason: 'stop' }, usage: { inputUncached: 0, cacheRead: 0, cacheWrite: 0, output: 0, reasoning: 0 } },
      ]),
    );
    expect(all.map((frame) => frame.event)).toEqual(['response.created', 'response.in_progress', 'response.completed']);
    expect(all[0]?.data['response']).toMatchObject({ id: 'resp_req_9' });
    expect(all[2]?.data['response']).toMatchObject({ usage: { input_tokens: 15, total_tokens: 25 } });
  });

  it('echoes the request settings in the response object', () => {
    const all = frames(
      encodeAll(
        [start, { type: 'response-end', finish: { reason: 'stop' }, usage }],
        context({
          instructions: 'be brief',
          store: false,
          text: { verbosity: 'low', format: { type: 'json_object' } },
          reasoning: { effort: 'high' },
          tool_choice: 'required',
          tools: [{ type: 'custom', name: 'apply_patch' }],
          max_output_tokens: 99,
          metadata: { a: 'b' },
          prompt_cache_key: 'k1',
        }),
      ),
    );
    expect(all.at(-1)?.data['response']).toMatchObject({
      instructions: 'be brief',
      store: false,
      text: { format: { type: 'json_object' }, verbosity: 'low' },
      reasoning: { effort: 'high', summary: null },
      tool_choice: 'required',
      tools: [{ type: 'custom', name: 'apply_patch' }],
      max_output_tokens: 99,
      metadata: { a: 'b' },
      prompt_cache_key: 'k1',
    });
  });

  it('offers an SSE comment as keep-alive', () => {
    expect(responsesFormat.createStreamEncoder(context()).keepAlive()).toBe(': keep-alive\n\n');
  });
});
