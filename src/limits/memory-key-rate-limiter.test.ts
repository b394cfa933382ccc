import { describe, expect, it } from 'vitest';
import { apiKeyRecord } from '../keys/api-key-record.js';
import { MemoryKeyRateLimiter } from './memory-key-rate-limiter.js';
import { RateLimitedError } from './rate-limited-error.js';

const key = (settings: { rpm?: number; tpm?: number; concurrency?: number }) =>
  apiKeyRecord({ id: 'key_1', name: 'k', prefix: 'sy-x', hash: 'h', createdAt: new Date(0), ...settings });

function clock(start: number) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('in-memory rate limits', () => {
  it('counts requests in the wall-clock minute and starts again at the next one', async () => {
    const time = clock(Date.parse('2026-11-26T10:00:50.000Z'));
    const limiter = new MemoryKeyRateLimiter(time.now);
    const limited = key({ rpm: 2 });
    (await limiter.admit(limited)).finish(0);
    const second = await limiter.admit(limited);
    expect(second.standing).toMatchObject({ requestLimit: 2, requestsRemaining: 0, resetAt: Date.parse('2026-11-26T10:01:00.000Z') });
    second.finish(0);
    const refusal = await limiter.admit(limited).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(RateLimitedError);
    expect((refusal as RateLimitedError).retryAfterSeconds).toBe(10);
    time.advance(10_000);
    expect((await limiter.admit(limited)).standing).toMatchObject({ requestsRemaining: 1 });
  });

  it('admits while the minute has tokens and charges them when a call ends, in the minute it ends', async () => {
    const time = clock(Date.parse('2026-11-26T10:00:00.000Z'));
    const limiter = new MemoryKeyRateLimiter(time.now);
    const limited = key({ tpm: 100 });
    const first = await limiter.admit(limited);
    const second = await limiter.admit(limited);
    first.finish(150);
    await expect(limiter.admit(limited)).rejects.toBeInstanceOf(RateLimitedError);
    time.advance(60_000);
    // Ends in the next minute: its tokens count there.
    second.finish(120);
    await expect(limiter.admit(limited)).rejects.toThrow('100 tokens per minute');
  });

  it('counts calls in flight across minutes and frees each slot once', async () => {
    const time = clock(Date.parse('2026-11-26T10:00:59.000Z'));
    const limiter = new MemoryKeyRateLimiter(time.now);
    const limited = key({ concurrency: 1 });
    const held = await limiter.admit(limited);
    expect(held.standing).toBeNull();
    time.advance(5_000);
    await expect(limiter.admit(limited)).rejects.toThrow('1 request in flight');
    held.finish(0);
    held.finish(0);
    const next = await limiter.admit(limited);
    await expect(limiter.admit(limited)).rejects.toBeInstanceOf(RateLimitedError);
    next.finish(0);
  });

  it('keeps keys apart', async () => {
    const limiter = new MemoryKeyRateLimiter();
    await limiter.admit(key({ rpm: 1 }));
    await expect(limiter.admit({ ...key({ rpm: 1 }), id: 'key_2' })).resolves.toBeDefined();
  });
});
