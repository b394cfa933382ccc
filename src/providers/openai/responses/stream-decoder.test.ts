import { describe, expect, it } from 'vitest';
import type { IrStreamEvent } from '../../../ir/index.js';
import { readStreams } from '../../../wire/responses/responses-fixtures.test-support.js';
import { createResponsesStreamDecoder } from './stream-decoder.js';
import { fixtureChunks } from '../../../../test/support/fixtures.js';

function decode(lines: readonly string[], withEventNames = true): IrStreamEvent[] {
  const decoder = createResponsesStreamDecoder();
  return [...lines.flatMap((line) => decoder.push(withEventNames ? (JSON.parse(line).type as string) : undefined, line)), ...decoder.end()];
}

function texts(events: readonly IrStreamEvent[], kind: 'text' | 'reasoning' | 'tool-arguments'): string {
  return events.flatMap((event) => (event.type === 'block-delta' && event.delta.kind === kind ? [event.delta.text] : [])).join('');
}

/** Every block that starts also ends, before response-end, and blocks are numbered in start order. */
function expectWellFormed(events: readonly IrStreamEvent[]): void {
  expect(events[0]?.type).toBe('response-start');
  const open = new Set<number>();
  let next = 0;
  for (const event of events) {
    if (event.type === 'block-start') {
      expect(event.index).toBe(next);
      next += 1;
      open.add(event.index);
    } else if (event.type === 'block-delta') {
      expect(open.has(event.index)).toBe(true);
    } else if (event.type === 'block-end') {
      expect(open.delete(event.index)).toBe(true);
    } else if (event.type === 'response-end' || event.type === 'error') {
      expect(open.size).toBe(0);
      expect(event).toBe(events.at(-1));
    }
  }
}

describe('Responses stream decoder on recorded streams', () => {
  it('decodes the Azure text stream with exact usage', () => {
    const events = decode(readStreams('openai/responses/azure-text.1.chunks.txt')[0] ?? []);
    expectWellFormed(events);
    expect(events[0]).toEqual({ type: 'response-start', id: 'resp_02ce8deeb6197db200698c5196e9588197a572bbea62d38cd1', model: 'gpt-5.1', created: 1770803606 });
    expect(texts(events, 'text')).toBe('Hello');
    expect(events.at(-1)).toEqual({
      type: 'response-end',
      finish: { reason: 'stop', raw: 'completed' },
      usage: { inputUncached: 11, cacheRead: 0, cacheWrite: 0, output: 11, reasoning: 0 },
    });
  });

  it('reads cache writes from response.completed (input_tokens_details.cache_write_tokens, part of input_tokens)', () => {
    const lines = (readStreams('openai/responses/azure-text.1.chunks.txt')[0] ?? []).map((line) => {
      const event = JSON.parse(line) as { type: string; response?: { usage?: { input_tokens_details?: Record<string, number> } | null } };
      const details = event.type === 'response.completed' ? event.response?.usage?.input_tokens_details : undefined;
      if (details !== undefined) details['cache_write_tokens'] = 4;
      return JSON.stringify(event);
    });
    expect(decode(lines).at(-1)).toMatchObject({ usage: { inputUncached: 7, cacheRead: 0, cacheWrite: 4, output: 11, reasoning: 0 } });
  });

  it('decodes the Azure function call with its call id, item id and arguments', () => {
    const events = decode(readStreams('openai/responses/azure-tool-call.1.chunks.txt')[0] ?? []);
    expectWellFormed(events);
    expect(events[1]).toEqual({
      type: 'block-start',
      index: 0,
      block: { kind: 'tool-call', id: 'call_H5DxLSFnsGhiROnUiDHmgyc8', name: 'weather', itemId: 'fc_04041325ab8ae30400698c51c5468c8197a395f18875a5339f' },
    });
    expect(texts(events, 'tool-arguments')).toBe('{"location":"San Francisco"}');
    expect(events.at(-1)).toMatchObject({ finish: { reason: 'tool-calls' }, usage: { inputUncached: 45, output: 24 } });
  });

  it('decodes all four streams of the reasoning tool loop, with the encrypted content on the block end', () => {
    const streams = readStreams('openai/responses/openai-reasoning-encrypted-content.1.chunks.txt');
    expect(streams).toHaveLength(4);
    const decoded = streams.map((lines) => decode(lines));
    decoded.forEach(expectWellFormed);
    const first = decoded[0] ?? [];
    const recordedItem = (streams[0] ?? []).map((line) => JSON.parse(line)).find((event) => event.type === 'response.output_item.done')?.item;
    expect(first[1]).toEqual({ type: 'block-start', index: 0, block: { kind: 'reasoning', itemId: recordedItem.id } });
    expect(texts(first, 'reasoning')).toBe(recordedItem.summary[0].text);
    expect(first.find((event) => event.type === 'block-end' && event.index === 0)).toEqual({
      type: 'block-end',
      index: 0,
      blob: { provider: 'openai', value: recordedItem.encrypted_content },
    });
    expect(decoded.map((events) => events.at(-1))).toEqual([
      { type: 'response-end', finish: { reason: 'tool-calls', raw: 'completed' }, usage: { inputUncached: 134, cacheRead: 0, cacheWrite: 0, output: 28, reasoning: 0 } },
      { type: 'response-end', finish: { reason: 'tool-calls', raw: 'completed' }, usage: { inputUncached: 221, cacheRead: 0, cacheWrite: 0, output: 26, reasoning: 0 } },
      { type: 'response-end', finish: { reason: 'tool-calls', raw: 'completed' }, usage: { inputUncached: 260, cacheRead: 0, cacheWrite: 0, output: 26, reasoning: 0 } },
      { type: 'response-end', finish: { reason: 'stop', raw: 'completed' }, usage: { inputUncached: 299, cacheRead: 0, cacheWrite: 0, output: 12, reasoning: 0 } },
    ]);
    expect(texts(decoded[3] ?? [], 'text')).toBe('The final result is **570**.');
  });

  it('skips web search calls and empty reasoning items but keeps the cited answer and the cache figures', () => {
    const lines = readStreams('openai/responses/openai-web-search-tool.1.chunks.txt')[0] ?? [];
    const events = decode(lines);
    expectWellFormed(events);
    expect(events.filter((event) => event.type === 'block-start').map((event) => event.type === 'block-start' && event.block.kind)).toEqual(['text']);
    const recorded = lines.map((line) => JSON.parse(line)).find((event) => event.type === 'response.output_text.done');
    expect(texts(events, 'text')).toBe(recorded.text);
    expect(events.at(-1)).toEqual({
      type: 'response-end',
      finish: { reason: 'stop', raw: 'completed' },
      usage: { inputUncached: 31073 - 3712, cacheRead: 3712, cacheWrite: 0, output: 4416 - 3712, reasoning: 3712 },
    });
  });

  it('skips the image generation call and its empty message', () => {
    const events = decode(readStreams('openai/responses/openai-image-generation-tool.1.chunks.txt')[0] ?? []);
    expectWellFormed(events);
    expect(events.filter((event) => event.type === 'block-start')).toEqual([]);
    expect(events.at(-1)).toEqual({
      type: 'response-end',
      finish: { reason: 'stop', raw: 'completed' },
      usage: { inputUncached: 2941 - 1920, cacheRead: 1920, cacheWrite: 0, output: 1249 - 1024, reasoning: 1024 },
    });
  });

  it('turns the nested error event into an error and ignores the response.failed after it', () => {
    const events = decode(fixtureChunks('openai/responses/openai-error.1.chunks.txt'));
    expect(events.map((event) => event.type)).toEqual(['response-start', 'error']);
    const error = events[1]?.type === 'error' ? events[1].error : undefined;
    expect(error?.code).toBe('upstream_rate_limited');
    expect(error?.upstreamType).toBe('insufficient_quota');
    expect(error?.message).toMatch(/exceeded your current quota/);
  });

  it('reads event types from the data when the event: lines are missing', () => {
    const events = decode(readStreams('openai/responses/azure-tool-call.1.chunks.txt')[0] ?? [], false);
    expect(texts(events, 'tool-arguments')).toBe('{"location":"San Francisco"}');
    expect(events.at(-1)?.type).toBe('response-end');
  });
});

describe('Responses stream decoder state machine', () => {
  const created = JSON.stringify({ type: 'response.created', response: { id: 'resp_1', model: 'gpt', created_at: 5 } });
  const push = (decoder: ReturnType<typeof createResponsesStreamDecoder>, payload: unknown): IrStreamEvent[] => decoder.push(undefined, JSON.stringify(payload));

  it('maps response.failed to an error, keeping the upstream code', () => {
    const decoder = createResponsesStreamDecoder();
    decoder.push(undefined, created);
    const events = push(decoder, { type: 'response.failed', response: { status: 'failed', error: { code: 'server_error', message: 'boom' } } });
    expect(events).toMatchObject([{ type: 'error', error: { code: 'upstream_error', upstreamType: 'server_error', message: 'boom' } }]);
    expect(decoder.end()).toEqual([]);
  });

  it('accepts the flat error event of the published schema', () => {
    const decoder = createResponsesStreamDecoder();
    decoder.push(undefined, created);
    const events = push(decoder, { type: 'error', code: 'context_length_exceeded', message: 'too long', param: null });
    expect(events).toMatchObject([{ type: 'error', error: { code: 'upstream_client_error', upstreamType: 'context_length_exceeded', message: 'too long' } }]);
  });

  it('maps an incomplete response to length with its raw reason', () => {
    const decoder = createResponsesStreamDecoder();
    decoder.push(undefined, created);
    push(decoder, { type: 'response.output_item.added', output_index: 0, item: { type: 'message', id: 'msg_1', content: [] } });
    push(decoder, { type: 'response.output_text.delta', output_index: 0, item_id: 'msg_1', content_index: 0, delta: 'Hel' });
    const events = push(decoder, {
      type: 'response.incomplete',
      response: { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' }, usage: { input_tokens: 3, output_tokens: 2 } },
    });
    expect(events).toEqual([
      { type: 'block-end', index: 0 },
      { type: 'response-end', finish: { reason: 'length', raw: 'max_output_tokens' }, usage: { inputUncached: 3, cacheRead: 0, cacheWrite: 0, output: 2, reasoning: 0 } },
    ]);
  });

  it('keeps separate blocks for interleaved items and joins summary parts with a blank line', () => {
    const decoder = createResponsesStreamDecoder();
    decoder.push(undefined, created);
    const events = [
      ...push(decoder, { type: 'response.output_item.added', output_index: 0, item: { type: 'reasoning', id: 'rs_1', summary: [] } }),
      ...push(decoder, { type: 'response.reasoning_summary_text.delta', output_index: 0, summary_index: 0, delta: 'one' }),
      ...push(decoder, { type: 'response.output_item.added', output_index: 1, item: { type: 'custom_tool_call', id: 'ctc_1', call_id: 'call_p', name: 'apply_patch', input: '' } }),
      ...push(decoder, { type: 'response.custom_tool_call_input.delta', output_index: 1, delta: '*** Begin' }),
      ...push(decoder, { type: 'response.reasoning_summary_text.delta', output_index: 0, summary_index: 1, delta: 'two' }),
      ...push(decoder, { type: 'response.output_item.done', output_index: 0, item: { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'enc' } }),
      ...push(decoder, { type: 'response.output_item.done', output_index: 1, item: { type: 'custom_tool_call', id: 'ctc_1', call_id: 'call_p', name: 'apply_patch', input: '*** Begin' } }),
      ...push(decoder, { type: 'response.completed', response: { status: 'completed' } }),
    ];
    expect(events).toEqual([
      { type: 'block-start', index: 0, block: { kind: 'reasoning', itemId: 'rs_1' } },
      { type: 'block-delta', index: 0, delta: { kind: 'reasoning', text: 'one' } },
      { type: 'block-start', index: 1, block: { kind: 'tool-call', id: 'call_p', name: 'apply_patch', toolKind: 'custom', itemId: 'ctc_1' } },
      { type: 'block-delta', index: 1, delta: { kind: 'tool-arguments', text: '*** Begin' } },
      { type: 'block-delta', index: 0, delta: { kind: 'reasoning', text: '\n\n' } },
      { type: 'block-delta', index: 0, delta: { kind: 'reasoning', text: 'two' } },
      { type: 'block-end', index: 0, blob: { provider: 'openai', value: 'enc' } },
      { type: 'block-end', index: 1 },
      { type: 'response-end', finish: { reason: 'tool-calls', raw: 'completed' }, usage: { inputUncached: 0, cacheRead: 0, cacheWrite: 0, output: 0, reasoning: 0 } },
    ]);
  });

  it('takes texts that arrive only in the finished item, and names namespaced calls', () => {
    const decoder = createResponsesStreamDecoder();
    decoder.push(undefined, created);
    const events = [
      ...push(decoder, { type: 'response.output_item.added', output_index: 0, item: { type: 'function_call', id: 'fc_1', call_id: 'c1', name: 'spawn_agent', namespace: 'multi_agent_v1', arguments: '' } }),
      ...push(decoder, { type: 'response.function_call_arguments.done', output_index: 0, arguments: '{"a":1}' }),
      ...push(decoder, { type: 'response.output_item.done', output_index: 0, item: { type: 'function_call', id: 'fc_1', call_id: 'c1', name: 'spawn_agent', arguments: '{"a":1}' } }),
      ...push(decoder, { type: 'response.output_item.added', output_index: 1, item: { type: 'message', id: 'msg_1', content: [] } }),
      ...push(decoder, { type: 'response.output_item.done', output_index: 1, item: { type: 'message', id: 'msg_1', content: [{ type: 'refusal', refusal: 'No.' }] } }),
    ];
    expect(events).toEqual([
      { type: 'block-start', index: 0, block: { kind: 'tool-call', id: 'c1', name: 'multi_agent_v1__spawn_agent', itemId: 'fc_1' } },
      { type: 'block-delta', index: 0, delta: { kind: 'tool-arguments', text: '{"a":1}' } },
      { type: 'block-end', index: 0 },
      { type: 'block-start', index: 1, block: { kind: 'text' } },
      { type: 'block-delta', index: 1, delta: { kind: 'text', text: 'No.' } },
      { type: 'block-end', index: 1 },
    ]);
  });

  it('ends with an error when the stream stops before its terminal event', () => {
    const decoder = createResponsesStreamDecoder();
    decoder.push(undefined, created);
    push(decoder, { type: 'response.output_item.added', output_index: 0, item: { type: 'message', id: 'msg_1', content: [] } });
    push(decoder, { type: 'response.output_text.delta', output_index: 0, delta: 'partial' });
    expect(decoder.end()).toMatchObject([{ type: 'block-end', index: 0 }, { type: 'error', error: { code: 'upstream_invalid_response' } }]);
  });

  it('fails on an event that is not JSON', () => {
    const decoder = createResponsesStreamDecoder();
    expect(decoder.push('response.created', 'not json')).toMatchObject([{ type: 'error', error: { code: 'upstream_invalid_response' } }]);
  });
});
