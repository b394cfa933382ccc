import { afterEach, describe, expect, it, vi } from 'vitest';
import { chatStreamFixtures } from '../../wire/chat/chat-fixtures.test-support.js';
import { chatFormat } from './index.js';
import { fixtureChunks, readJsonFixture } from '../../../test/support/fixtures.js';

afterEach(() => {
  vi.restoreAllMocks();
});

const expected = {
  'openai text': { inputUncached: 16, cacheRead: 0, cacheWrite: 0, output: 300, reasoning: 0 },
  'azure model router': { inputUncached: 15, cacheRead: 0, cacheWrite: 0, output: 14, reasoning: 64 },
  'deepseek tool call': { inputUncached: 19, cacheRead: 320, cacheWrite: 0, output: 44, reasoning: 39 },
  'xai tool call': { inputUncached: 1, cacheRead: 306, cacheWrite: 0, output: 26, reasoning: 227 },
  'groq tool call': { inputUncached: 210, cacheRead: 0, cacheWrite: 0, output: 15, reasoning: 0 },
} as const;

describe('chat usage tap (passthrough)', () => {
  for (const fixture of chatStreamFixtures) {
    it(`reads the usage of the recorded ${fixture.name} stream`, () => {
      const tap = chatFormat.createUsageTap();
      for (const line of fixtureChunks(fixture.chunks)) tap.observe(undefined, line);
      tap.observe(undefined, '[DONE]');
      expect(tap.usage()).toEqual(expected[fixture.name]);
    });
  }

  it('parses only the chunk that carries a usage object', () => {
    const parse = vi.spyOn(JSON, 'parse');
    const tap = chatFormat.createUsageTap();
    const lines = fixtureChunks('openai/chat/openai-text.chunks.txt');
    parse.mockClear();
    for (const line of lines) tap.observe(undefined, line);
    expect(lines.length).toBeGreaterThan(50);
    expect(parse).toHaveBeenCalledTimes(1);
  });

  it('reports no usage for a stream that carried none', () => {
    const tap = chatFormat.createUsageTap();
    tap.observe(undefined, '{"choices":[{"index":0,"delta":{"content":"x"}}],"usage":null}');
    expect(tap.usage()).toBeUndefined();
  });

  it("takes an error payload as the stream's end, spaced or in vLLM's shape", () => {
    for (const payload of ['{"error":{"message":"m"}}', '{ "error": {"message":"m"}}', '{"object":"error","message":"m","type":"BadRequestError","param":null,"code":400}']) {
      const tap = chatFormat.createUsageTap();
      tap.observe(undefined, '{"choices":[{"index":0,"delta":{"content":"x"}}],"usage":null}');
      expect(tap.ended()).toBe(false);
      tap.observe(undefined, payload);
      expect(tap.ended()).toBe(true);
    }
  });

  it('reads usage from whole bodies', () => {
    expect(chatFormat.usageFromBody(readJsonFixture('openai/chat/openai-text.json'))).toEqual({ inputUncached: 16, cacheRead: 0, cacheWrite: 0, output: 363, reasoning: 0 });
    expect(chatFormat.usageFromBody(readJsonFixture('openai-compatible/chat/groq-tool-call.json'))).toEqual({ inputUncached: 218, cacheRead: 0, cacheWrite: 0, output: 15, reasoning: 0 });
    expect(chatFormat.usageFromBody({ choices: [] })).toBeUndefined();
  });
});
