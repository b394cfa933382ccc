import { afterEach, describe, expect, it, vi } from 'vitest';
import { messagesFormat } from './index.js';
import { fixtureChunks, readJsonFixture } from '../../../test/support/fixtures.js';

afterEach(() => {
  vi.restoreAllMocks();
});

const streams: readonly [string, unknown][] = [
  ['anthropic-text.chunks.txt', { inputUncached: 12, cacheRead: 0, cacheWrite: 0, output: 30, reasoning: 0 }],
  ['anthropic-tool-no-args.chunks.txt', { inputUncached: 565, cacheRead: 0, cacheWrite: 0, output: 48, reasoning: 0 }],
  ['anthropic-clear-thinking.1.chunks.txt', { inputUncached: 69, cacheRead: 0, cacheWrite: 0, output: 53, reasoning: 0 }],
  // message_delta restates input_tokens with a different figure; the later one wins.
  ['anthropic-message-delta-input-tokens.chunks.txt', { inputUncached: 61, cacheRead: 0, cacheWrite: 0, output: 2, reasoning: 0 }],
];

function typeOf(line: string): string {
  return (JSON.parse(line) as { type: string }).type;
}

describe('Messages usage tap (passthrough)', () => {
  it.each(streams)('reads the usage of the recorded %s stream', (file, expected) => {
    const tap = messagesFormat.createUsageTap();
    for (const line of fixtureChunks(`anthropic/messages/${file}`)) tap.observe(typeOf(line), line);
    expect(tap.usage()).toEqual(expected);
  });

  it('parses only message_start and message_delta, picked by event name', () => {
    const lines = fixtureChunks('anthropic/messages/anthropic-web-search-tool.1.chunks.txt');
    const names = lines.map(typeOf);
    const parse = vi.spyOn(JSON, 'parse');
    const tap = messagesFormat.createUsageTap();
    lines.forEach((line, index) => tap.observe(names[index], line));
    expect(lines.length).toBeGreaterThan(20);
    expect(parse).toHaveBeenCalledTimes(names.filter((name) => name === 'message_start' || name === 'message_delta').length);
    expect(tap.usage()?.inputUncached).toBeGreaterThan(0);
  });

  it('recognises the two events by their type when a relay dropped the event names', () => {
    const tap = messagesFormat.createUsageTap();
    for (const line of fixtureChunks('anthropic/messages/anthropic-tool-no-args.chunks.txt')) tap.observe(undefined, line);
    expect(tap.usage()).toEqual({ inputUncached: 565, cacheRead: 0, cacheWrite: 0, output: 48, reasoning: 0 });
  });

  it('reads the one-hour cache writes of message_start, which message_delta does not restate', () => {
    // The recorded anthropic-text stream's two usage events, with a cache write of 2048 tokens kept one hour.
    const start =
      '{"type":"message_start","message":{"model":"claude-sonnet-4-5-20250929","id":"msg_01QC4g3HwBThD4BaNtBckFDJ","type":"message","role":"assistant","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":12,"cache_creation_input_tokens":2048,"cache_read_input_tokens":0,"cache_creation":{"ephemeral_5m_input_tokens":0,"ephemeral_1h_input_tokens":2048},"output_tokens":1,"service_tier":"standard"}}}';
    const delta =
      '{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"input_tokens":12,"cache_creation_input_tokens":2048,"cache_read_input_tokens":0,"output_tokens":30}}';
    const tap = messagesFormat.createUsageTap();
    tap.observe('message_start', start);
    tap.observe('message_delta', delta);
    tap.observe('message_stop', '{"type":"message_stop"}');
    expect(tap.usage()).toEqual({ inputUncached: 12, cacheRead: 0, cacheWrite: 2048, cacheWriteOneHour: 2048, output: 30, reasoning: 0 });
  });

  it('reports no usage for a stream that carried none', () => {
    const tap = messagesFormat.createUsageTap();
    tap.observe('content_block_delta', '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"x"}}');
    tap.observe('message_start', '{"type":"message_start","message":{"id":"msg_1"}}');
    expect(tap.usage()).toBeUndefined();
  });

  it('reads usage from whole bodies, thinking tokens split out', () => {
    expect(messagesFormat.usageFromBody(readJsonFixture('anthropic/messages/anthropic-claude-opus-5-reasoning-high.1.json'))).toEqual({
      inputUncached: 51,
      cacheRead: 0,
      cacheWrite: 0,
      output: 1699 - 139,
      reasoning: 139,
    });
    expect(messagesFormat.usageFromBody({ type: 'message', content: [] })).toBeUndefined();
    expect(messagesFormat.usageFromBody('not a body')).toBeUndefined();
  });
});
