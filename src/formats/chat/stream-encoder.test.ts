import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../errors/gateway-error.js';
import type { IrStreamEvent } from '../../ir/index.js';
import type { EncodeContext } from '../client-format.js';
import { chatFormat } from './index.js';

function context(includeUsage: boolean): EncodeContext {
  return {
    requestId: 'req_9',
    model: 'public-model',
    request: chatFormat.decodeRequest({ model: 'public-model', messages: [{ role: 'user', content: 'hi' }], stream: true, stream_options: { include_usage: includeUsage } }),
  };
}

const usage = { inputUncached: 10, cacheRead: 5, cacheWrite: 0, output: 7, reasoning: 3 };

const events: IrStreamEvent[] = [
  { type: 'response-start', id: 'msg_abc', model: 'claude-x', created: 1700000000 },
  { type: 'block-start', index: 0, block: { kind: 'reasoning' } },
  { type: 'block-delta', index: 0, delta: { kind: 'reasoning', text: 'hmm' } },
  { type: 'block-end', index: 0 },
  { type: 'block-start', index: 1, block: { kind: 'text' } },
  { type: 'block-delta', index: 1, delta: { kind: 'text', text: 'Let me check.' } },
  { type: 'block-end', index: 1 },
  { type: 'block-start', index: 2, block: { kind: 'tool-call', id: 'toolu_1', name: 'weather' } },
  { type: 'block-delta', index: 2, delta: { kind: 'tool-arguments', text: '{"city":' } },
  { type: 'block-delta', index: 2, delta: { kind: 'tool-arguments', text: '"Oslo"}' } },
  { type: 'block-end', index: 2 },
  { type: 'block-start', index: 3, block: { kind: 'tool-call', id: 'toolu_2', name: 'time' } },
  { type: 'block-end', index: 3 },
  { type: 'response-end', finish: { reason: 'tool-calls', raw: 'tool_use' }, usage },
];

function frames(text: string): string[] {
  expect(text.endsWith('\n\n')).toBe(true);
  return text.split('\n\n').filter((frame) => frame !== '');
}

function payloads(text: string): Record<string, unknown>[] {
  return frames(text)
    .filter((frame) => frame !== 'data: [DONE]')
    .map((frame) => {
      expect(frame.startsWith('data: ')).toBe(true);
      return JSON.parse(frame.slice('data: '.length)) as Record<string, unknown>;
    });
}

describe('chat stream encoder', () => {
  it('writes the chunk sequence chat SDKs expect, numbering tool calls on their own', () => {
    const encoder = chatFormat.createStreamEncoder(context(true));
    const text = events.map((event) => encoder.encode(event)).join('');
    expect(frames(text).at(-1)).toBe('data: [DONE]');
    const chunks = payloads(text);
    for (const chunk of chunks) {
      expect(chunk).toMatchObject({ id: 'chatcmpl-msg_abc', object: 'chat.completion.chunk', created: 1700000000, model: 'public-model' });
    }
    const deltas = chunks.map((chunk) => (chunk['choices'] as { delta: unknown; finish_reason: unknown }[])[0]);
    expect(deltas).toEqual([
      { index: 0, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null },
      { index: 0, delta: { reasoning_content: 'hmm' }, logprobs: null, finish_reason: null },
      { index: 0, delta: { content: 'Let me check.' }, logprobs: null, finish_reason: null },
      { index: 0, delta: { tool_calls: [{ index: 0, id: 'toolu_1', type: 'function', function: { name: 'weather', arguments: '' } }] }, logprobs: null, finish_reason: null },
      { index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] }, logprobs: null, finish_reason: null },
      { index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '"Oslo"}' } }] }, logprobs: null, finish_reason: null },
      { index: 0, delta: { tool_calls: [{ index: 1, id: 'toolu_2', type: 'function', function: { name: 'time', arguments: '' } }] }, logprobs: null, finish_reason: null },
      { index: 0, delta: {}, logprobs: null, finish_reason: 'tool_calls' },
      undefined,
    ]);
    expect(chunks.slice(0, -1).every((chunk) => chunk['usage'] === null)).toBe(true);
    expect(chunks.at(-1)).toMatchObject({
      choices: [],
      usage: { prompt_tokens: 15, completion_tokens: 10, total_tokens: 25, prompt_tokens_details: { cached_tokens: 5 }, completion_tokens_details: { reasoning_tokens: 3 } },
    });
  });

  it('leaves out the usage chunk and the usage field when include_usage was not asked for', () => {
    const encoder = chatFormat.createStreamEncoder(context(false));
    const chunks = payloads(events.map((event) => encoder.encode(event)).join(''));
    expect(chunks.every((chunk) => !('usage' in chunk))).toBe(true);
    expect(chunks.at(-1)?.['choices']).toMatchObject([{ finish_reason: 'tool_calls' }]);
  });

  it('writes an in-stream error without [DONE] and nothing after it', () => {
    const encoder = chatFormat.createStreamEncoder(context(true));
    encoder.encode(events[0] as IrStreamEvent);
    const text = encoder.encode({ type: 'error', error: new GatewayError('upstream_unavailable', 'Overloaded') });
    expect(text).toBe('data: {"error":{"message":"Overloaded","type":"api_error","param":null,"code":"upstream_unavailable","request_id":"req_9"}}\n\n');
    expect(encoder.encode({ type: 'response-end', finish: { reason: 'stop' }, usage })).toBe('');
  });

  it('starts with the role chunk even when the first event is a block', () => {
    const encoder = chatFormat.createStreamEncoder(context(false));
    const chunks = payloads(encoder.encode({ type: 'block-start', index: 0, block: { kind: 'tool-call', id: 'c', name: 'f' } }));
    expect(chunks[0]?.['choices']).toMatchObject([{ delta: { role: 'assistant' } }]);
    expect(chunks[0]?.['id']).toBe('chatcmpl-req_9');
  });

  it('sends a comment as keep-alive', () => {
    expect(chatFormat.createStreamEncoder(context(false)).keepAlive()).toBe(': keep-alive\n\n');
  });
});
