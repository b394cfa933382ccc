import { describe, expect, it } from 'vitest';
import {
  mergeMessagesUsage,
  messagesUsageFromUsage,
  readMessagesUsage,
  usageFromMessagesFigures,
  usageFromMessagesUsage,
} from './messages-usage.js';
import { readJsonFixture } from '../../../test/support/fixtures.js';

function fixtureUsage(name: string): unknown {
  const body = readJsonFixture(`anthropic/messages/${name}`);
  if (typeof body !== 'object' || body === null || !('usage' in body)) throw new Error(`${name} has no usage`);
  return body.usage;
}

describe('Messages usage → IR usage', () => {
  it('takes thinking tokens out of output_tokens when the upstream reports them', () => {
    expect(usageFromMessagesUsage(fixtureUsage('anthropic-claude-opus-5-reasoning-high.1.json'))).toEqual({
      inputUncached: 51,
      cacheRead: 0,
      cacheWrite: 0,
      output: 1699 - 139,
      reasoning: 139,
    });
  });

  it('counts all output as visible output when no thinking breakdown is given', () => {
    expect(usageFromMessagesUsage(fixtureUsage('anthropic-clear-thinking.1.json'))).toEqual({
      inputUncached: 69,
      cacheRead: 0,
      cacheWrite: 0,
      output: 33,
      reasoning: 0,
    });
  });

  it('keeps input_tokens as the uncached bucket because Messages already excludes cache reads and writes', () => {
    const usage = usageFromMessagesUsage({
      input_tokens: 10,
      cache_creation_input_tokens: 200,
      cache_read_input_tokens: 3000,
      output_tokens: 40,
    });
    expect(usage).toEqual({ inputUncached: 10, cacheRead: 3000, cacheWrite: 200, output: 40, reasoning: 0 });
  });

  it('treats null cache figures (as in message_delta) as zero', () => {
    const usage = usageFromMessagesUsage({ input_tokens: 5, cache_read_input_tokens: null, output_tokens: 2 });
    expect(usage).toEqual({ inputUncached: 5, cacheRead: 0, cacheWrite: 0, output: 2, reasoning: 0 });
  });

  it('keeps cache writes as one total and notes the part kept one hour from cache_creation', () => {
    const usage = usageFromMessagesUsage({
      input_tokens: 10,
      cache_creation_input_tokens: 1500,
      cache_read_input_tokens: 3000,
      cache_creation: { ephemeral_5m_input_tokens: 500, ephemeral_1h_input_tokens: 1000 },
      output_tokens: 40,
    });
    expect(usage).toEqual({ inputUncached: 10, cacheRead: 3000, cacheWrite: 1500, cacheWriteOneHour: 1000, output: 40, reasoning: 0 });
  });

  it('leaves the one-hour part out when none of the cache writes was kept one hour (recorded body)', () => {
    const usage = usageFromMessagesUsage(fixtureUsage('anthropic-text.json'));
    expect(usage).not.toHaveProperty('cacheWriteOneHour');
  });

  it('never reports more one-hour writes than cache writes in all', () => {
    const usage = usageFromMessagesUsage({
      input_tokens: 1,
      cache_creation_input_tokens: 100,
      cache_creation: { ephemeral_1h_input_tokens: 250 },
      output_tokens: 1,
    });
    expect(usage.cacheWriteOneHour).toBe(100);
  });

  it('keeps the one-hour figure of message_start when message_delta does not restate it', () => {
    const start = readMessagesUsage({
      input_tokens: 12,
      cache_creation_input_tokens: 2048,
      cache_read_input_tokens: 0,
      cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 2048 },
      output_tokens: 1,
    });
    const delta = readMessagesUsage({ input_tokens: 12, cache_creation_input_tokens: 2048, cache_read_input_tokens: 0, output_tokens: 30 });
    expect(usageFromMessagesFigures(mergeMessagesUsage(start, delta))).toEqual({
      inputUncached: 12,
      cacheRead: 0,
      cacheWrite: 2048,
      cacheWriteOneHour: 2048,
      output: 30,
      reasoning: 0,
    });
  });

  it('lets later cumulative figures replace only the fields they restate', () => {
    const start = readMessagesUsage({ input_tokens: 43, cache_read_input_tokens: 7, output_tokens: 1 });
    const merged = mergeMessagesUsage(start, readMessagesUsage({ input_tokens: 61, output_tokens: 2 }));
    expect(merged).toEqual({ input: 61, cacheRead: 7, cacheWrite: undefined, output: 2, thinking: undefined });
  });
});

describe('IR usage → Messages usage', () => {
  it('puts reasoning back into output_tokens and reports it as thinking_tokens', () => {
    expect(messagesUsageFromUsage({ inputUncached: 51, cacheRead: 4, cacheWrite: 6, output: 1560, reasoning: 139 })).toEqual({
      input_tokens: 51,
      cache_creation_input_tokens: 6,
      cache_read_input_tokens: 4,
      output_tokens: 1699,
      output_tokens_details: { thinking_tokens: 139 },
    });
  });

  it('omits output_tokens_details when there was no reasoning', () => {
    expect(messagesUsageFromUsage({ inputUncached: 12, cacheRead: 0, cacheWrite: 0, output: 30, reasoning: 0 })).toEqual({
      input_tokens: 12,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      output_tokens: 30,
    });
  });

  it('round-trips a fixture usage object through the IR', () => {
    const original = fixtureUsage('anthropic-claude-opus-5-reasoning-high.1.json');
    const again = messagesUsageFromUsage(usageFromMessagesUsage(original));
    expect(again).toMatchObject({ input_tokens: 51, output_tokens: 1699, output_tokens_details: { thinking_tokens: 139 } });
  });
});
