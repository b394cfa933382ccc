import { describe, expect, it } from 'vitest';
import type { IrRequest, IrStreamEvent, OutputPart, Usage } from '../../ir/index.js';
import { fixtureChunks, readJsonFixture } from '../../../test/support/fixtures.js';
import { decodeMessagesResponse } from './decode-response.js';
import { createAnthropicStreamDecoder } from './stream-decoder.js';

const request: IrRequest = { model: 'claude', messages: [], params: {}, stream: true, extensions: {} };

function fixtureLines(name: string): string[] {
  return fixtureChunks(`anthropic/messages/${name}`);
}

/** Replays recorded data lines as named SSE events (the event name equals the JSON `type`). */
function replay(name: string, irRequest: IrRequest = request, withEnd = true): IrStreamEvent[] {
  const decoder = createAnthropicStreamDecoder(irRequest);
  const events: IrStreamEvent[] = [];
  for (const line of fixtureLines(name)) {
    const parsed: unknown = JSON.parse(line);
    const eventName = typeof parsed === 'object' && parsed !== null && 'type' in parsed && typeof parsed.type === 'string' ? parsed.type : undefined;
    events.push(...decoder.push(eventName, line));
  }
  if (withEnd) events.push(...decoder.end());
  return events;
}

interface Assembled {
  readonly content: OutputPart[];
  readonly finish: unknown;
  readonly usage: Usage | undefined;
  readonly startUsage: Usage | undefined;
}

/** Folds IR events into the parts a non-streamed answer would hold, checking the event lifecycle on the way. */
function assemble(events: readonly IrStreamEvent[]): Assembled {
  const parts = new Map<number, OutputPart>();
  const open = new Set<number>();
  let finish: unknown;
  let usage: Usage | undefined;
  let startUsage: Usage | undefined;
  let ended = false;
  expect(events[0]?.type).toBe('response-start');
  for (const event of events) {
    expect(ended).toBe(false);
    switch (event.type) {
      case 'response-start':
        startUsage = event.usage;
        break;
      case 'block-start': {
        expect(event.index).toBe(parts.size);
        open.add(event.index);
        const block = event.block;
        parts.set(
          event.index,
          block.kind === 'text'
            ? { type: 'text', text: '' }
            : block.kind === 'reasoning'
              ? { type: 'reasoning', text: '', ...(block.redacted === true ? { redacted: true } : {}) }
              : { type: 'tool-call', id: block.id, name: block.name, arguments: '' },
        );
        break;
      }
      case 'block-delta': {
        expect(open.has(event.index)).toBe(true);
        const part = parts.get(event.index);
        if (part === undefined) throw new Error('delta for unknown block');
        if (part.type === 'tool-call') parts.set(event.index, { ...part, arguments: part.arguments + event.delta.text });
        else parts.set(event.index, { ...part, text: part.text + event.delta.text });
        break;
      }
      case 'block-end': {
        expect(open.delete(event.index)).toBe(true);
        const part = parts.get(event.index);
        if (event.blob !== undefined && part !== undefined && part.type !== 'text') parts.set(event.index, { ...part, blob: event.blob });
        break;
      }
      case 'usage':
        usage = event.usage;
        break;
      case 'response-end':
        expect(open.size).toBe(0);
        finish = event.finish;
        usage = event.usage;
        ended = true;
        break;
      case 'error':
        throw event.error;
    }
  }
  expect(ended).toBe(true);
  return { content: [...parts.values()], finish, usage, startUsage };
}

function decodeFixture(name: string): ReturnType<typeof decodeMessagesResponse> {
  return decodeMessagesResponse(readJsonFixture(`anthropic/messages/${name}`), request);
}

/** The shape of an answer: part types, tool names and finish (the .json and .chunks.txt files are separate runs). */
function shape(content: readonly OutputPart[], finish: unknown): unknown {
  return { parts: content.map((part) => (part.type === 'tool-call' ? `tool-call:${part.name}` : part.type)), finish };
}

describe('Anthropic stream decoder on recorded streams', () => {
  it('decodes a text stream with pings into one text block and exact usage', () => {
    const result = assemble(replay('anthropic-text.chunks.txt'));
    expect(result.content).toEqual([
      { type: 'text', text: "Hello! I'm doing well, thank you for asking. How are you doing today? Is there anything I can help you with?" },
    ]);
    expect(result.finish).toEqual({ reason: 'stop', raw: 'end_turn' });
    expect(result.startUsage).toEqual({ inputUncached: 12, cacheRead: 0, cacheWrite: 0, output: 1, reasoning: 0 });
    expect(result.usage).toEqual({ inputUncached: 12, cacheRead: 0, cacheWrite: 0, output: 30, reasoning: 0 });
  });

  it('gives a tool call with only empty partial_json the arguments "{}"', () => {
    const result = assemble(replay('anthropic-tool-no-args.chunks.txt'));
    expect(result.content).toEqual([
      { type: 'text', text: "I'll update the issue list for you." },
      { type: 'tool-call', id: 'toolu_01QE1WLsSVp5hy5Q3GmGTmjP', name: 'updateIssueList', arguments: '{}' },
    ]);
    expect(result.finish).toEqual({ reason: 'tool-calls', raw: 'tool_use' });
    expect(result.usage).toEqual({ inputUncached: 565, cacheRead: 0, cacheWrite: 0, output: 48, reasoning: 0 });
  });

  it('concatenates input_json_delta fragments into the tool arguments', () => {
    const events = replay('anthropic-json-tool.1.chunks.txt');
    const argumentDeltas = events.filter((event) => event.type === 'block-delta' && event.delta.kind === 'tool-arguments');
    expect(argumentDeltas).toHaveLength(2);
    const result = assemble(events);
    const call = result.content[0];
    expect(call?.type).toBe('tool-call');
    if (call?.type !== 'tool-call') return;
    expect(call.name).toBe('json');
    expect(JSON.parse(call.arguments)).toEqual({ elements: [{ location: 'San Francisco', temperature: 58, condition: 'sunny' }] });
    expect(result.usage).toEqual({ inputUncached: 849, cacheRead: 0, cacheWrite: 0, output: 47, reasoning: 0 });
  });

  it('puts the signature_delta on the thinking block-end as an anthropic blob', () => {
    const events = replay('anthropic-clear-thinking.1.chunks.txt');
    const thinkingEnd = events.find((event) => event.type === 'block-end' && event.index === 0);
    expect(thinkingEnd).toEqual({
      type: 'block-end',
      index: 0,
      blob: { provider: 'anthropic', value: expect.stringMatching(/^EvQBCkYICxgCKkAxhD4N.*BgB$/) },
    });
    const textEnd = events.find((event) => event.type === 'block-end' && event.index === 1);
    expect(textEnd).toEqual({ type: 'block-end', index: 1 });
    const result = assemble(events);
    expect(result.content[0]).toMatchObject({ type: 'reasoning', text: 'The previous result was 925. Now I need to divide that by 5.\n\n925 ÷ 5 = 185' });
    expect(result.content[1]).toEqual({ type: 'text', text: '925 ÷ 5 = 185' });
    expect(result.usage).toEqual({ inputUncached: 69, cacheRead: 0, cacheWrite: 0, output: 53, reasoning: 0 });
  });

  it('ends a refusal with no blocks and the refusal finish', () => {
    const events = replay('anthropic-refusal.chunks.txt');
    expect(events.map((event) => event.type)).toEqual(['response-start', 'usage', 'response-end']);
    const result = assemble(events);
    expect(result.finish).toEqual({ reason: 'refusal', raw: 'refusal' });
    expect(result.usage).toEqual({ inputUncached: 18, cacheRead: 0, cacheWrite: 0, output: 5, reasoning: 0 });
  });

  it('takes the input count restated in message_delta over the one from message_start', () => {
    const result = assemble(replay('anthropic-message-delta-input-tokens.chunks.txt'));
    expect(result.startUsage).toEqual({ inputUncached: 43, cacheRead: 0, cacheWrite: 0, output: 1, reasoning: 0 });
    expect(result.usage).toEqual({ inputUncached: 61, cacheRead: 0, cacheWrite: 0, output: 2, reasoning: 0 });
    expect(result.content).toEqual([{ type: 'text', text: 'pong' }]);
  });

  it('carries the one-hour cache writes of message_start to the final usage', () => {
    // The recorded anthropic-text stream with its message_start usage given a one-hour cache write.
    const lines = fixtureLines('anthropic-text.chunks.txt').map((line) =>
      line.replace(
        '"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"cache_creation":{"ephemeral_5m_input_tokens":0,"ephemeral_1h_input_tokens":0}',
        '"cache_creation_input_tokens":4096,"cache_read_input_tokens":0,"cache_creation":{"ephemeral_5m_input_tokens":1024,"ephemeral_1h_input_tokens":3072}',
      ).replace('"usage":{"input_tokens":12,"cache_creation_input_tokens":0,', '"usage":{"input_tokens":12,"cache_creation_input_tokens":4096,'),
    );
    const decoder = createAnthropicStreamDecoder(request);
    const events = lines.flatMap((line) => decoder.push(undefined, line));
    const result = assemble([...events, ...decoder.end()]);
    expect(result.usage).toEqual({ inputUncached: 12, cacheRead: 0, cacheWrite: 4096, cacheWriteOneHour: 3072, output: 30, reasoning: 0 });
  });

  it('skips server-tool blocks and citations and numbers the remaining blocks from 0', () => {
    const events = replay('anthropic-web-search-tool.1.chunks.txt');
    const result = assemble(events);
    // Upstream blocks 0 (server_tool_use) and 1 (web_search_tool_result) are not emitted; 2–20 are text.
    expect(result.content).toHaveLength(19);
    expect(result.content.every((part) => part.type === 'text')).toBe(true);
    expect(result.content[0]).toMatchObject({ type: 'text', text: expect.stringMatching(/^Based on my search results/) });
    expect(events.some((event) => event.type === 'block-delta' && event.delta.kind === 'tool-arguments')).toBe(false);
    expect(result.startUsage).toMatchObject({ inputUncached: 2037, output: 1 });
    expect(result.usage).toEqual({ inputUncached: 15665, cacheRead: 0, cacheWrite: 0, output: 795, reasoning: 0 });
    expect(result.finish).toEqual({ reason: 'stop', raw: 'end_turn' });
  });

  it('ends every recorded stream with exactly one response-end and nothing from end()', () => {
    for (const name of ['anthropic-text.chunks.txt', 'anthropic-refusal.chunks.txt', 'anthropic-web-search-tool.1.chunks.txt']) {
      const decoder = createAnthropicStreamDecoder(request);
      const events = fixtureLines(name).flatMap((line) => decoder.push(undefined, line));
      expect(events.filter((event) => event.type === 'response-end')).toHaveLength(1);
      expect(decoder.end()).toEqual([]);
    }
  });
});

describe('streamed and non-streamed answers agree', () => {
  // Each .chunks.txt / .json pair was recorded as two separate runs (ids and wording differ), so
  // the comparison is of structure: part types in order, tool names, finish.
  it.each([
    ['anthropic-text'],
    ['anthropic-tool-no-args'],
    ['anthropic-clear-thinking.1'],
    ['anthropic-json-tool.1'],
    ['anthropic-refusal'],
  ])('%s: the concatenated stream has the shape of the decoded message', (base) => {
    const streamed = assemble(replay(`${base}.chunks.txt`));
    const whole = decodeFixture(`${base}.json`);
    expect(shape(streamed.content, streamed.finish)).toEqual(shape(whole.content, whole.finish));
  });

  it('web search: both leave out the server blocks and keep only text', () => {
    const streamed = assemble(replay('anthropic-web-search-tool.1.chunks.txt'));
    const whole = decodeFixture('anthropic-web-search-tool.1.json');
    expect(new Set(streamed.content.map((part) => part.type))).toEqual(new Set(whole.content.map((part) => part.type)));
    expect(streamed.finish).toEqual(whole.finish);
  });
});

describe('Anthropic stream decoder failures', () => {
  it('closes open blocks and reports an error when the stream ends before message_stop', () => {
    const lines = fixtureLines('anthropic-clear-thinking.1.chunks.txt').slice(0, 8);
    const decoder = createAnthropicStreamDecoder(request);
    for (const line of lines) decoder.push(undefined, line);
    const tail = decoder.end();
    expect(tail.map((event) => event.type)).toEqual(['block-end', 'error']);
    expect(tail[0]).toEqual({ type: 'block-end', index: 0 });
    const last = tail[1];
    expect(last?.type === 'error' && last.error.code).toBe('upstream_error');
    expect(decoder.end()).toEqual([]);
  });

  it('turns an overloaded_error event into an upstream_unavailable error after closing blocks', () => {
    const decoder = createAnthropicStreamDecoder(request);
    const lines = fixtureLines('anthropic-text.chunks.txt').slice(0, 4);
    for (const line of lines) decoder.push(undefined, line);
    const events = decoder.push('error', '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}');
    expect(events.map((event) => event.type)).toEqual(['block-end', 'error']);
    const error = events[1]?.type === 'error' ? events[1].error : undefined;
    expect(error?.code).toBe('upstream_unavailable');
    expect(error?.status).toBe(503);
    expect(error?.upstreamType).toBe('overloaded_error');
    expect(decoder.push(undefined, '{"type":"message_stop"}')).toEqual([]);
    expect(decoder.end()).toEqual([]);
  });

  it('reports unreadable data as an invalid upstream response', () => {
    const decoder = createAnthropicStreamDecoder(request);
    const events = decoder.push('message_start', '{not json');
    expect(events).toHaveLength(1);
    expect(events[0]?.type === 'error' && events[0].error.code).toBe('upstream_invalid_response');
  });

  it('unwraps a custom tool call to its raw input text', () => {
    const customRequest: IrRequest = { ...request, tools: [{ type: 'custom', name: 'apply_patch' }] };
    const decoder = createAnthropicStreamDecoder(customRequest);
    const events = [
      ...decoder.push(undefined, fixtureLines('anthropic-json-tool.1.chunks.txt')[0] ?? ''),
      ...decoder.push(undefined, '{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"apply_patch","input":{}}}'),
      ...decoder.push(undefined, '{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\\"input\\": \\"*** Begin"}}'),
      ...decoder.push(undefined, '{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":" Patch\\"}"}}'),
      ...decoder.push(undefined, '{"type":"content_block_stop","index":0}'),
      ...decoder.push(undefined, '{"type":"message_delta","delta":{"stop_reason":"tool_use"},"usage":{"output_tokens":9}}'),
      ...decoder.push(undefined, '{"type":"message_stop"}'),
    ];
    expect(events[1]).toEqual({ type: 'block-start', index: 0, block: { kind: 'tool-call', id: 'toolu_1', name: 'apply_patch', toolKind: 'custom' } });
    const argumentDeltas = events.filter((event) => event.type === 'block-delta');
    expect(argumentDeltas).toEqual([{ type: 'block-delta', index: 0, delta: { kind: 'tool-arguments', text: '*** Begin Patch' } }]);
  });
});
