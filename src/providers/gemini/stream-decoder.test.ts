import { describe, expect, it } from 'vitest';
import type { IrStreamEvent, OutputPart } from '../../ir/index.js';
import { collectOutputParts } from './collect-output-parts.js';
import { decodeGeminiResponse } from './decode-response.js';
import { createGeminiStreamDecoder } from './stream-decoder.js';
import { makeRequest, replayChunks } from './gemini.test-support.js';
import { fixtureChunks, readJsonFixture } from '../../../test/support/fixtures.js';

function replay(name: string): IrStreamEvent[] {
  return replayChunks(createGeminiStreamDecoder(makeRequest({ stream: true })), fixtureChunks(`google/generate-content/${name}.chunks.txt`));
}

/** The stream contract: start first, blocks numbered from 0, each ended, one response-end last. */
function expectWellFormed(events: readonly IrStreamEvent[]): void {
  expect(events[0]?.type).toBe('response-start');
  expect(events.at(-1)?.type).toBe('response-end');
  expect(events.filter((event) => event.type === 'response-end')).toHaveLength(1);
  const started = events.flatMap((event) => (event.type === 'block-start' ? [event.index] : []));
  const ended = events.flatMap((event) => (event.type === 'block-end' ? [event.index] : []));
  expect(started).toEqual(started.map((_, position) => position));
  expect([...ended].sort((left, right) => left - right)).toEqual(started);
}

function responseEnd(events: readonly IrStreamEvent[]) {
  const end = events.at(-1);
  if (end?.type !== 'response-end') throw new Error('no response-end');
  return end;
}

function toolCalls(parts: readonly OutputPart[]) {
  return parts.flatMap((part) => (part.type === 'tool-call' ? [{ name: part.name, args: JSON.parse(part.arguments) as unknown }] : []));
}

describe('Gemini stream decoder on recorded text streams', () => {
  it('streams text as one block, puts the final signature on its end and reports exact usage (google-text)', () => {
    const events = replay('google-text');
    expectWellFormed(events);
    expect(events[0]).toMatchObject({ type: 'response-start', id: 'bH6LaZW8Fp_3nsEPqtaSwQ4', model: 'gemini-3-pro-preview' });
    const parts = collectOutputParts(events);
    expect(parts).toHaveLength(1);
    expect(parts[0]).toMatchObject({ type: 'text', text: 'There are **3** "r"s in strawberry.\n\nst**r**awbe**rr**y' });
    const blockEnd = events.find((event) => event.type === 'block-end');
    expect(blockEnd?.type === 'block-end' && blockEnd.blob?.provider).toBe('gemini');
    expect(blockEnd?.type === 'block-end' && blockEnd.blob?.value.startsWith('EqsFCqgFAb4')).toBe(true);
    expect(responseEnd(events).finish).toEqual({ reason: 'stop', raw: 'STOP' });
    expect(responseEnd(events).usage).toEqual({ inputUncached: 9, cacheRead: 0, cacheWrite: 0, output: 23, reasoning: 185 });
  });

  it('puts the first chunk\'s usage, prompt tokens included, on response-start', () => {
    expect(replay('google-text')[0]).toMatchObject({ type: 'response-start', usage: { inputUncached: 9, cacheRead: 0, output: 5, reasoning: 185 } });
  });

  it('starts without usage when the first chunk carries no token counts (Vertex)', () => {
    const events = replay('google-stream-no-args-tool-call');
    expect(events[0]?.type).toBe('response-start');
    expect(events[0]?.type === 'response-start' && events[0].usage).toBeUndefined();
  });

  it('sends cumulative usage mid-stream when it changes', () => {
    const usageEvents = replay('google-text').filter((event) => event.type === 'usage');
    expect(usageEvents.map((event) => event.type === 'usage' && event.usage.output)).toEqual([5, 23]);
  });

  it.each([
    ['google-reasoning', 'There are **3** "r"s in strawberry.\n\nHere is the breakdown: st**r**awbe**rr**y.', 29, 256],
    ['google-reasoning-gemini3', 'There are **3** "r"s in strawberry.\n\nSt**r**awbe**rr**y', 23, 302],
  ])('decodes %s with the signature kept and thought tokens counted', (name, text, output, reasoning) => {
    const events = replay(name);
    expectWellFormed(events);
    const parts = collectOutputParts(events);
    expect(parts).toHaveLength(1);
    expect(parts[0]).toMatchObject({ type: 'text', text, blob: { provider: 'gemini' } });
    expect(responseEnd(events).usage).toEqual({ inputUncached: 9, cacheRead: 0, cacheWrite: 0, output, reasoning });
    expect(responseEnd(events).finish.reason).toBe('stop');
  });
});

describe('Gemini stream decoder on recorded tool calls', () => {
  it.each([
    ['google-tool-call', 'b36LacjwM668nsEP2tbsgQQ', 45],
    ['google-tool-call-gemini3', 'QHiLaa6LBrb8vdIPoNztsAg', 804],
  ])('emits a whole function call as one closed tool-call block (%s)', (name, responseId, reasoning) => {
    const events = replay(name);
    expectWellFormed(events);
    const start = events.find((event) => event.type === 'block-start');
    expect(start).toMatchObject({ block: { kind: 'tool-call', id: `call_${responseId}_0`, name: 'weather', blob: { provider: 'gemini' } } });
    const deltas = events.filter((event) => event.type === 'block-delta');
    expect(deltas).toHaveLength(1);
    const parts = collectOutputParts(events);
    // The trailing empty text part carries nothing and opens no block.
    expect(parts.map((part) => part.type)).toEqual(['tool-call']);
    expect(toolCalls(parts)).toEqual([{ name: 'weather', args: { location: 'San Francisco' } }]);
    expect(responseEnd(events).finish).toEqual({ reason: 'tool-calls', raw: 'STOP' });
    expect(responseEnd(events).usage).toEqual({ inputUncached: 29, cacheRead: 0, cacheWrite: 0, output: 15, reasoning });
  });

  it.each(['google-tool-call', 'google-tool-call-gemini3'])('gives the same call, finish and usage kind streamed or not (%s)', (name) => {
    const streamed = replay(name);
    const whole = decodeGeminiResponse(readJsonFixture(`google/generate-content/${name}.json`), makeRequest());
    expect(toolCalls(collectOutputParts(streamed))).toEqual(toolCalls(whole.content));
    expect(responseEnd(streamed).finish).toEqual(whole.finish);
    expect(responseEnd(streamed).usage.inputUncached).toBe(whole.usage.inputUncached);
    expect(responseEnd(streamed).usage.output).toBe(whole.usage.output);
    expect(responseEnd(streamed).usage.reasoning).toBeGreaterThan(0);
  });

  it('assembles Vertex streamed arguments into each call (google-stream-tool-call-arguments)', () => {
    const events = replay('google-stream-tool-call-arguments');
    expectWellFormed(events);
    const parts = collectOutputParts(events);
    expect(toolCalls(parts)).toEqual([
      { name: 'getWeather', args: { location: 'Boston' } },
      { name: 'getWeather', args: { location: 'San Francisco' } },
    ]);
    expect(parts.map((part) => part.type === 'tool-call' && part.id)).toEqual([
      'call_dqHOab6xGLzWodAPkPuViA4_0',
      'call_dqHOab6xGLzWodAPkPuViA4_1',
    ]);
    expect(parts[0]?.type === 'tool-call' && parts[0].blob?.value.startsWith('CiMBjz1rX25K')).toBe(true);
    expect(parts[1]?.type === 'tool-call' && parts[1].blob).toBeUndefined();
    expect(responseEnd(events).finish).toEqual({ reason: 'tool-calls', raw: 'STOP' });
    expect(responseEnd(events).usage).toEqual({ inputUncached: 26, cacheRead: 0, cacheWrite: 0, output: 23, reasoning: 132 });
  });

  it('decodes a thought summary, a no-args call and three streamed calls (google-stream-no-args-tool-call)', () => {
    const events = replay('google-stream-no-args-tool-call');
    expectWellFormed(events);
    const parts = collectOutputParts(events);
    expect(parts.map((part) => part.type)).toEqual(['reasoning', 'tool-call', 'tool-call', 'tool-call', 'tool-call']);
    expect(parts[0]?.type === 'reasoning' && parts[0].text.startsWith('**Processing User Requests**')).toBe(true);
    expect(toolCalls(parts)).toEqual([
      { name: 'read_theme', args: {} },
      { name: 'read_screen', args: { id: 'A' } },
      { name: 'read_screen', args: { id: 'B' } },
      { name: 'read_screen', args: { id: 'C' } },
    ]);
    expect(parts[1]?.type === 'tool-call' && parts[1].blob?.provider).toBe('gemini');
    // Early chunks carry only trafficType: no usage event until real figures arrive.
    expect(events.some((event) => event.type === 'usage')).toBe(false);
    expect(responseEnd(events).usage).toEqual({ inputUncached: 249, cacheRead: 0, cacheWrite: 0, output: 58, reasoning: 183 });
  });
});

describe('Gemini stream decoder failures', () => {
  it('closes the open block and reports an error when the stream stops before a finish reason', () => {
    const decoder = createGeminiStreamDecoder(makeRequest({ stream: true }));
    const chunks = fixtureChunks('google/generate-content/google-text.chunks.txt').slice(0, 2);
    const events = replayChunks(decoder, chunks);
    expect(events.some((event) => event.type === 'response-end')).toBe(false);
    expect(events.at(-2)).toEqual({ type: 'block-end', index: 0 });
    const last = events.at(-1);
    expect(last?.type).toBe('error');
    expect(last?.type === 'error' && last.error.code).toBe('upstream_error');
  });

  it('reports an error for a stream that ends with nothing at all', () => {
    const events = createGeminiStreamDecoder(makeRequest()).end();
    expect(events.map((event) => event.type)).toEqual(['error']);
  });

  it('turns an error object sent in the stream into an error event and ignores what follows', () => {
    const decoder = createGeminiStreamDecoder(makeRequest({ stream: true }));
    const first = decoder.push(undefined, fixtureChunks('google/generate-content/google-text.chunks.txt')[0] ?? '');
    expect(first[0]?.type).toBe('response-start');
    const failed = decoder.push(undefined, JSON.stringify({ error: { code: 503, message: 'The model is overloaded.', status: 'UNAVAILABLE' } }));
    const last = failed.at(-1);
    expect(last?.type === 'error' && [last.error.code, last.error.status, last.error.upstreamType]).toEqual(['upstream_unavailable', 503, 'UNAVAILABLE']);
    expect(failed.filter((event) => event.type === 'block-end')).toHaveLength(1);
    expect(decoder.push(undefined, fixtureChunks('google/generate-content/google-text.chunks.txt')[1] ?? '')).toEqual([]);
    expect(decoder.end()).toEqual([]);
  });

  it('reports unreadable stream data as an invalid upstream response', () => {
    const events = createGeminiStreamDecoder(makeRequest()).push(undefined, '{not json');
    expect(events.at(-1)?.type === 'error' && (events.at(-1) as { error: { code: string } }).error.code).toBe('upstream_invalid_response');
  });

  it('ends a blocked prompt with content-filter', () => {
    const decoder = createGeminiStreamDecoder(makeRequest({ stream: true }));
    const chunk = { promptFeedback: { blockReason: 'SAFETY' }, usageMetadata: { promptTokenCount: 7, totalTokenCount: 7 }, responseId: 'blocked' };
    const events = replayChunks(decoder, [JSON.stringify(chunk)]);
    expect(events.map((event) => event.type)).toEqual(['response-start', 'response-end']);
    expect(responseEnd(events).finish).toEqual({ reason: 'content-filter', raw: 'SAFETY' });
    expect(responseEnd(events).usage.inputUncached).toBe(7);
  });
});
