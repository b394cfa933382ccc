import { describe, expect, it } from 'vitest';
import { apiKeyRecord } from '../../keys/api-key-record.js';
import type { KeyRateLimiter } from './key-rate-limiter.js';
import { RateLimitedError } from './rate-limited-error.js';

/** Makes a fresh limiter (nothing counted yet) reading the time from `now`, with windows of `windowMs` (a minute when absent). */
export type OpenRateLimiter = (now: () => number, windowMs?: number) => KeyRateLimiter;

export const rateLimitedKey = (settings: { rpm?: number; tpm?: number; concurrency?: number }, id = 'key_1') =>
  apiKeyRecord({ id, name: 'k', prefix: 'sy-x', hash: 'h', createdAt: new Date(0), ...settings });

export function testClock(start: number) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

/**
 * What every KeyRateLimiter must do, whichever store counts: the in-memory limiter and the one
 * shared through Redis run these same tests.
 */
export function describeKeyRateLimiterContract(name: string, open: OpenRateLimiter): void {
  describe(`${name} rate limiter contract`, () => {
    it('counts requests in the wall-clock minute and starts again at the next one', async () => {
      const time = testClock(Date.parse('2026-11-26T10:00:50.000Z'));
      const limiter = open(time.now);
      const limited = rateLimitedKey({ rpm: 2 });
      const first = await limiter.admit(limited);
      expect(first.standing).toMatchObject({ requestLimit: 2, requestsRemaining: 1, tokenLimit: null, tokensRemaining: 0, resetAt: Date.parse('2026-11-26T10:01:00.000Z') });
      first.finish(0);
      const second = await limiter.admit(limited);
      expect(second.standing).toMatchObject({ requestLimit: 2, requestsRemaining: 0, resetAt: Date.parse('2026-11-26T10:01:00.000Z') });
      second.finish(0);
      const refusal = await Promise.resolve(limiter.admit(limited)).catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(RateLimitedError);
      expect((refusal as RateLimitedError).message).toBe('Rate limit of 2 requests per minute reached for this API key.');
      expect((refusal as RateLimitedError).retryAfterSeconds).toBe(10);
      expect((refusal as RateLimitedError).standing).toMatchObject({ requestsRemaining: 0 });
      time.advance(10_000);
      expect((await limiter.admit(limited)).standing).toMatchObject({ requestsRemaining: 1, resetAt: Date.parse('2026-11-26T10:02:00.000Z') });
    });

    it('admits while the minute has tokens and charges them when a call ends, in the minute it ends', async () => {
      const time = testClock(Date.parse('2026-11-26T10:00:00.000Z'));
      const limiter = open(time.now);
      const limited = rateLimitedKey({ tpm: 100 });
      const first = await limiter.admit(limited);
      const second = await limiter.admit(limited);
      first.finish(40);
      expect((await limiter.admit(limited)).standing).toMatchObject({ tokenLimit: 100, tokensRemaining: 60 });
      first.finish(500);
      second.finish(110);
      await expect(Promise.resolve(limiter.admit(limited))).rejects.toThrow('100 tokens per minute');
      time.advance(60_000);
      const late = await limiter.admit(limited);
      expect(late.standing).toMatchObject({ tokensRemaining: 100 });
      time.advance(1_000);
      // Ends in the next minute: its tokens count there.
      late.finish(120);
      await expect(Promise.resolve(limiter.admit(limited))).rejects.toThrow('100 tokens per minute');
    });

    it('counts calls in flight across minutes and frees each slot once', async () => {
      const time = testClock(Date.parse('2026-11-26T10:00:59.000Z'));
      const limiter = open(time.now);
      const limited = rateLimitedKey({ concurrency: 2 });
      const held = await limiter.admit(limited);
      expect(held.standing).toBeNull();
      const other = await limiter.admit(limited);
      time.advance(5_000);
      await expect(Promise.resolve(limiter.admit(limited))).rejects.toThrow('2 requests in flight');
      held.finish(0);
      held.finish(0);
      const next = await limiter.admit(limited);
      await expect(Promise.resolve(limiter.admit(limited))).rejects.toBeInstanceOf(RateLimitedError);
      other.finish(0);
      next.finish(0);
      (await limiter.admit(limited)).finish(0);
    });

    it('counts per configured window, with the reset and the retry-after of that window', async () => {
      const time = testClock(Date.parse('2026-11-26T10:00:03.200Z'));
      const limiter = open(time.now, 5_000);
      const limited = rateLimitedKey({ rpm: 2, tpm: 50 });
      expect((await limiter.admit(limited)).standing).toMatchObject({ requestsRemaining: 1, resetAt: Date.parse('2026-11-26T10:00:05.000Z') });
      const second = await limiter.admit(limited);
      second.finish(60);
      const refusal = await Promise.resolve(limiter.admit(limited)).catch((error: unknown) => error);
      expect((refusal as RateLimitedError).message).toBe('Rate limit of 2 requests per 5-second window reached for this API key.');
      expect((refusal as RateLimitedError).retryAfterSeconds).toBe(2);
      time.advance(1_800);
      // The next window: requests and tokens start again.
      expect((await limiter.admit(limited)).standing).toMatchObject({ requestLimit: 2, requestsRemaining: 1, tokenLimit: 50, tokensRemaining: 50, resetAt: Date.parse('2026-11-26T10:00:10.000Z') });
    });

    it('does not count a refused call', async () => {
      const time = testClock(Date.parse('2026-11-26T10:00:00.000Z'));
      const limiter = open(time.now);
      const limited = rateLimitedKey({ rpm: 3, concurrency: 1 });
      const held = await limiter.admit(limited);
      await expect(Promise.resolve(limiter.admit(limited))).rejects.toThrow('1 request in flight');
      await expect(Promise.resolve(limiter.admit(limited))).rejects.toThrow('1 request in flight');
      held.finish(0);
      expect((await limiter.admit(limited)).standing).toMatchObject({ requestsRemaining: 1 });
    });

    it('keeps keys apart', async () => {
      const limiter = open(Date.now);
      await limiter.admit(rateLimitedKey({ rpm: 1, concurrency: 1 }));
      await expect(Promise.resolve(limiter.admit(rateLimitedKey({ rpm: 1, concurrency: 1 }, 'key_2')))).resolves.toBeDefined();
      await expect(Promise.resolve(limiter.admit(rateLimitedKey({ rpm: 1, concurrency: 1 })))).rejects.toBeInstanceOf(RateLimitedError);
    });
  });
}
