import { describe, expect, it } from 'vitest';
import { openAiDuration, rateLimitHeaders } from './rate-limit-headers.js';

const standing = { requestLimit: 60, requestsRemaining: 59, tokenLimit: 1000, tokensRemaining: 400, resetAt: Date.parse('2026-11-26T10:01:00.000Z') };
const now = Date.parse('2026-11-26T10:00:40.250Z');

describe('rate-limit headers', () => {
  it("writes OpenAI's names with resets as durations", () => {
    expect(rateLimitHeaders(standing, 'chat', now)).toEqual({
      'x-ratelimit-limit-requests': '60',
      'x-ratelimit-remaining-requests': '59',
      'x-ratelimit-reset-requests': '20s',
      'x-ratelimit-limit-tokens': '1000',
      'x-ratelimit-remaining-tokens': '400',
      'x-ratelimit-reset-tokens': '20s',
    });
  });

  it("writes Anthropic's names with resets as RFC 3339 times on /messages", () => {
    expect(rateLimitHeaders(standing, 'messages', now)).toEqual({
      'anthropic-ratelimit-requests-limit': '60',
      'anthropic-ratelimit-requests-remaining': '59',
      'anthropic-ratelimit-requests-reset': '2026-11-26T10:01:00Z',
      'anthropic-ratelimit-tokens-limit': '1000',
      'anthropic-ratelimit-tokens-remaining': '400',
      'anthropic-ratelimit-tokens-reset': '2026-11-26T10:01:00Z',
    });
  });

  it('leaves out the set a key has no limit for', () => {
    expect(Object.keys(rateLimitHeaders({ ...standing, tokenLimit: null }, 'responses', now))).toEqual([
      'x-ratelimit-limit-requests',
      'x-ratelimit-remaining-requests',
      'x-ratelimit-reset-requests',
    ]);
    expect(Object.keys(rateLimitHeaders({ ...standing, requestLimit: null }, 'messages', now))).toEqual([
      'anthropic-ratelimit-tokens-limit',
      'anthropic-ratelimit-tokens-remaining',
      'anthropic-ratelimit-tokens-reset',
    ]);
  });

  it('formats durations the way OpenAI does', () => {
    expect([0, 1, 999, 1000, 1001, 20_000, 59_000, 59_999, 61_000].map(openAiDuration)).toEqual(['0ms', '1ms', '999ms', '1s', '2s', '20s', '59s', '1m0s', '1m1s']);
  });

  it('follows the clock from one answer to the next (the last reset string is reused only while it is right)', () => {
    const resets = [now, now + 1, now + 1_000, now + 19_500, now + 19_749].map((at) => rateLimitHeaders(standing, 'chat', at)['x-ratelimit-reset-requests']);
    expect(resets).toEqual(['20s', '20s', '19s', '250ms', '1ms']);
    const next = { ...standing, resetAt: standing.resetAt + 60_000 };
    expect(rateLimitHeaders(standing, 'messages', now)['anthropic-ratelimit-requests-reset']).toBe('2026-11-26T10:01:00Z');
    expect(rateLimitHeaders(next, 'messages', now + 60_000)['anthropic-ratelimit-requests-reset']).toBe('2026-11-26T10:02:00Z');
    expect(rateLimitHeaders(standing, 'messages', now)['anthropic-ratelimit-requests-reset']).toBe('2026-11-26T10:01:00Z');
  });
});
