import { describe, expect, it } from 'vitest';
import type { IrStreamEvent } from '../../../ir/index.js';
import { StreamAccumulator } from '../../../ir/index.js';
import { readJsonFixture } from '../../../../test/support/fixtures.js';
import { createConverseStreamDecoder, decodeConverseResponse } from './index.js';
import { makeRequest, recordedEvents, replayEvents } from './converse.test-support.js';

function accumulate(events: readonly IrStreamEvent[]) {
  const accumulator = new StreamAccumulator();
  for (const event of events) accumulator.push(event);
  return accumulator.result();
}

function types(events: readonly IrStreamEvent[]): string[] {
  return events.map((event) => (event.type === 'block-start' ? `block-start:${event.block.kind}` : event.type));
}

describe('ConverseStream → IR events', () => {
  it('streams Claude\'s reasoning, hands its signature over at the block\'s end, then the text (recorded stream)', () => {
    const events = replayEvents(createConverseStreamDecoder(makeRequest({ stream: true })), recordedEvents('bedrock-reasoning.chunks.txt'));
    expect(types(events).filter((type) => type !== 'block-delta')).toEqual([
      'response-start', 'block-start:reasoning', 'block-end', 'block-start:text', 'block-end', 'response-end',
    ]);
    const reasoningEnd = events.find((event) => event.type === 'block-end' && event.index === 0);
    expect(reasoningEnd).toEqual({ type: 'block-end', index: 0, blob: { provider: 'bedrock', value: expect.stringMatching(/^Ep0CCkgICxABGAIqQOWPB6/) } });
    const answer = accumulate(events);
    expect(answer.content[0]).toMatchObject({ type: 'reasoning', text: 'Let me count the r\'s in "strawberry":\n\ns-t-r-a-w-b-e-r-r-y\n\nr appears at positions 3, 8, and 9.\n\nSo there are 3 r\'s.' });
    expect(answer.content[1]).toEqual({ type: 'text', text: 'There are **3** r\'s in "strawberry":\n\n1. st**r**awbe**r****r**y' });
    expect(answer.finish).toEqual({ reason: 'stop', raw: 'end_turn' });
    expect(answer.usage).toEqual({ inputUncached: 51, cacheRead: 0, cacheWrite: 0, output: 94, reasoning: 0 });
  });

  it('streams a tool call whose input arrives in many deltas, after redacted reasoning (recorded stream)', () => {
    const events = replayEvents(createConverseStreamDecoder(makeRequest({ stream: true })), recordedEvents('amazon-bedrock-redacted-content.chunks.txt'));
    const starts = events.filter((event) => event.type === 'block-start');
    expect(starts).toEqual([
      { type: 'block-start', index: 0, block: { kind: 'reasoning', redacted: true } },
      { type: 'block-start', index: 1, block: { kind: 'tool-call', id: 'call_61f8fcbe423a58699163c53e076f1a06', name: 'propose' } },
    ]);
    const argumentDeltas = events.filter((event) => event.type === 'block-delta' && event.delta.kind === 'tool-arguments');
    expect(argumentDeltas.length).toBe(26);
    const answer = accumulate(events);
    expect(answer.content[0]).toMatchObject({ type: 'reasoning', redacted: true, blob: { provider: 'bedrock', value: expect.stringMatching(/^cnNuX3BVUGgx/) } });
    expect(JSON.parse((answer.content[1] as { arguments: string }).arguments)).toEqual({
      groups: [{ name: 'Sales', parentGroupName: '' }, { name: 'Team1', parentGroupName: 'Sales' }],
    });
    expect(answer.finish).toEqual({ reason: 'tool-calls', raw: 'tool_use' });
  });

  it('opens text blocks on their first delta, never emits blank ones, and fits the tool id (recorded stream)', () => {
    const events = replayEvents(createConverseStreamDecoder(makeRequest({ stream: true })), recordedEvents('issue-11409-kimi-k2-thinking-read-file.chunks.txt'));
    const answer = accumulate(events);
    expect(answer.content.map((part) => part.type)).toEqual(['text', 'tool-call']);
    expect(answer.content[1]).toEqual({ type: 'tool-call', id: 'functions_read_file_1', name: 'read_file', arguments: '{"target_file": "src/cursor-config.ts"}' });
    expect(answer.usage).toEqual({ inputUncached: 260, cacheRead: 0, cacheWrite: 0, output: 116, reasoning: 0 });
  });

  it('ends once both the stop reason and the usage have come, in whichever order', () => {
    const decoder = createConverseStreamDecoder(makeRequest({ stream: true }));
    decoder.push('messageStart', '{"role":"assistant"}');
    decoder.push('contentBlockDelta', '{"contentBlockIndex":0,"delta":{"text":"Hi"}}');
    expect(decoder.push('metadata', '{"usage":{"inputTokens":3,"outputTokens":1,"cacheReadInputTokens":7,"totalTokens":11},"metrics":{"latencyMs":20}}'))
      .toEqual([{ type: 'usage', usage: { inputUncached: 3, cacheRead: 7, cacheWrite: 0, output: 1, reasoning: 0 } }]);
    expect(decoder.push('messageStop', '{"stopReason":"max_tokens"}')).toEqual([
      { type: 'block-end', index: 0 },
      { type: 'response-end', finish: { reason: 'length', raw: 'max_tokens' }, usage: { inputUncached: 3, cacheRead: 7, cacheWrite: 0, output: 1, reasoning: 0 } },
    ]);
    expect(decoder.end()).toEqual([]);
  });

  it('reports the stop sequence Claude names in messageStop, and cache figures from metadata', () => {
    const decoder = createConverseStreamDecoder(makeRequest({ stream: true }));
    decoder.push('messageStart', '{"role":"assistant"}');
    decoder.push('contentBlockDelta', '{"contentBlockIndex":0,"delta":{"text":"one two"}}');
    decoder.push('messageStop', '{"stopReason":"stop_sequence","additionalModelResponseFields":{"delta":{"stop_sequence":"three"}}}');
    const end = decoder.push('metadata', '{"usage":{"inputTokens":4,"outputTokens":2,"cacheReadInputTokens":1024,"cacheWriteInputTokens":2048,"totalTokens":3078,"cacheDetails":[{"inputTokens":2048,"ttl":"1h"}]}}');
    expect(end).toEqual([{
      type: 'response-end',
      finish: { reason: 'stop-sequence', raw: 'stop_sequence', stopSequence: 'three' },
      usage: { inputUncached: 4, cacheRead: 1024, cacheWrite: 2048, cacheWriteOneHour: 2048, output: 2, reasoning: 0 },
    }]);
  });

  it('ends with the stop reason when the stream closes without usage after messageStop', () => {
    const decoder = createConverseStreamDecoder(makeRequest({ stream: true }));
    decoder.push('messageStart', '{"role":"assistant"}');
    decoder.push('messageStop', '{"stopReason":"end_turn"}');
    expect(decoder.end()).toEqual([{ type: 'response-end', finish: { reason: 'stop', raw: 'end_turn' }, usage: { inputUncached: 0, cacheRead: 0, cacheWrite: 0, output: 0, reasoning: 0 } }]);
  });

  it('turns an exception event into a stream error, closing the open block first', () => {
    const decoder = createConverseStreamDecoder(makeRequest({ stream: true }));
    decoder.push('messageStart', '{"role":"assistant"}');
    decoder.push('contentBlockDelta', '{"contentBlockIndex":0,"delta":{"text":"Hi"}}');
    const events = decoder.push('throttlingException', '{"message":"Too many tokens, please wait before trying again."}');
    expect(events[0]).toEqual({ type: 'block-end', index: 0 });
    expect(events[1]).toMatchObject({ type: 'error', error: { code: 'upstream_rate_limited', status: 429, upstreamType: 'ThrottlingException' } });
    expect(decoder.push('contentBlockDelta', '{"contentBlockIndex":0,"delta":{"text":"more"}}')).toEqual([]);
    const modelError = createConverseStreamDecoder(makeRequest()).push('modelStreamErrorException', '{"message":"boom","originalStatusCode":500}');
    expect(modelError[modelError.length - 1]).toMatchObject({ type: 'error', error: { code: 'upstream_error', status: 502, retryable: true } });
  });

  it('fails a stream that ends before messageStop', () => {
    const decoder = createConverseStreamDecoder(makeRequest({ stream: true }));
    decoder.push('messageStart', '{"role":"assistant"}');
    decoder.push('contentBlockStart', '{"contentBlockIndex":0,"start":{"toolUse":{"toolUseId":"t1","name":"now"}}}');
    const events = decoder.end();
    expect(events[0]).toEqual({ type: 'block-delta', index: 0, delta: { kind: 'tool-arguments', text: '{}' } });
    expect(events[1]).toEqual({ type: 'block-end', index: 0 });
    expect(events[2]).toMatchObject({ type: 'error', error: { code: 'upstream_error' } });
  });

  it('reads events handed over in the SDK\'s wrapped shape, without a name', () => {
    const decoder = createConverseStreamDecoder(makeRequest({ stream: true }));
    const events = [
      ...decoder.push(undefined, '{"messageStart":{"role":"assistant"}}'),
      ...decoder.push(undefined, '{"contentBlockDelta":{"contentBlockIndex":0,"delta":{"text":"Hi"}}}'),
    ];
    expect(types(events)).toEqual(['response-start', 'block-start:text', 'block-delta']);
  });

  it('holds a custom tool\'s input back and hands over the raw text it wraps', () => {
    const decoder = createConverseStreamDecoder(makeRequest({ stream: true, tools: [{ type: 'custom', name: 'apply_patch' }] }));
    const events = [
      ...decoder.push('contentBlockStart', '{"contentBlockIndex":0,"start":{"toolUse":{"toolUseId":"t1","name":"apply_patch"}}}'),
      ...decoder.push('contentBlockDelta', '{"contentBlockIndex":0,"delta":{"toolUse":{"input":"{\\"input\\":\\"*** Begin"}}}'),
      ...decoder.push('contentBlockDelta', '{"contentBlockIndex":0,"delta":{"toolUse":{"input":" Patch\\"}"}}}'),
      ...decoder.push('contentBlockStop', '{"contentBlockIndex":0}'),
    ];
    expect(events.slice(1)).toEqual([
      { type: 'block-start', index: 0, block: { kind: 'tool-call', id: 't1', name: 'apply_patch', toolKind: 'custom' } },
      { type: 'block-delta', index: 0, delta: { kind: 'tool-arguments', text: '*** Begin Patch' } },
      { type: 'block-end', index: 0 },
    ]);
  });

  it('assembles the same reasoning, text and usage figures as the decoded whole answer of the same prompt', () => {
    const streamed = accumulate(replayEvents(createConverseStreamDecoder(makeRequest({ stream: true })), recordedEvents('bedrock-reasoning.chunks.txt')));
    const whole = decodeConverseResponse(readJsonFixture('bedrock/converse/amazon-bedrock-reasoning.json'), makeRequest());
    expect(streamed.content.map((part) => part.type)).toEqual(whole.content.map((part) => part.type));
    expect(streamed.content[1]).toEqual(whole.content[1]);
    expect(streamed.usage.inputUncached).toBe(whole.usage.inputUncached);
  });
});
