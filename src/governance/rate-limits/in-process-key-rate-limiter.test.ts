import { describe, expect, it } from 'vitest';
import { describeKeyRateLimiterContract, rateLimitedKey, testClock } from './key-rate-limiter-contract.test-support.js';
import type { RateAdmission } from './key-rate-limiter.js';
import { InProcessKeyRateLimiter } from './in-process-key-rate-limiter.js';

describeKeyRateLimiterContract('in-memory', (now, windowMs) => new InProcessKeyRateLimiter(now, windowMs));

describe('in-memory admission', () => {
  it("reads its standing from the key's counters when asked: an answer's headers count the calls admitted and ended since", () => {
    const time = testClock(Date.parse('2026-11-26T10:00:30.000Z'));
    const limiter = new InProcessKeyRateLimiter(time.now);
    const key = rateLimitedKey({ rpm: 5, tpm: 100 });
    const first = limiter.admit(key) as RateAdmission;
    expect(first.standing).toMatchObject({ requestLimit: 5, requestsRemaining: 4, tokenLimit: 100, tokensRemaining: 100 });
    (limiter.admit(key) as RateAdmission).finish(30);
    expect(first.standing).toMatchObject({ requestsRemaining: 3, tokensRemaining: 70, resetAt: Date.parse('2026-11-26T10:01:00.000Z') });
    time.advance(60_000);
    limiter.admit(key);
    // The key's window has moved on: the standing is the new window's.
    expect(first.standing).toMatchObject({ requestsRemaining: 4, tokensRemaining: 100, resetAt: Date.parse('2026-11-26T10:02:00.000Z') });
  });

  it('has no standing for a key with only a concurrency limit', () => {
    const limiter = new InProcessKeyRateLimiter(Date.now);
    expect((limiter.admit(rateLimitedKey({ concurrency: 2 })) as RateAdmission).standing).toBeNull();
  });
});
