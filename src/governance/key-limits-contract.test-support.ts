import { describe, expect, it } from 'vitest';
import { InProcessBudgetMeter } from './budgets/in-process-budget-meter.js';
import { settledEntry, storedSpend } from './budgets/budget-meter-contract.test-support.js';
import { apiKeyRecord } from '../keys/api-key-record.js';
import type { ApiKeyRecord } from '../storage/ports.js';
import type { KeyLimits } from './key-limits.js';
import { testClock } from './rate-limits/key-rate-limiter-contract.test-support.js';
import { InProcessKeyRateLimiter } from './rate-limits/in-process-key-rate-limiter.js';
import { RateLimitedError } from './rate-limits/rate-limited-error.js';

/** Makes key limits over a fresh in-memory limiter and meter, the way one implementation composes them. */
export type OpenKeyLimits = (rates: InProcessKeyRateLimiter, budgets: InProcessBudgetMeter) => KeyLimits;

const limitedKey = (settings: Partial<Pick<ApiKeyRecord, 'rpm' | 'tpm' | 'concurrency' | 'budgetNanoUsd'>>): ApiKeyRecord =>
  apiKeyRecord({ id: 'key_1', name: 'k', prefix: 'sy-x', hash: 'h', createdAt: new Date(0), ...settings });

function opened(open: OpenKeyLimits, spent = 0n) {
  const time = testClock(Date.parse('2026-11-26T12:00:30.000Z'));
  const budgets = new InProcessBudgetMeter(storedSpend({ total: spent, month: spent, day: spent }).read, time.now);
  return { time, budgets, limits: open(new InProcessKeyRateLimiter(time.now), budgets) };
}

/** What a call meets whichever way its key's limits are held: the calls of the endpoints rely on it. */
export function describeKeyLimitsContract(name: string, open: OpenKeyLimits): void {
  describe(`${name} key limits contract`, () => {
    it("states the key's standing in the family's headers, counting calls admitted and ended", async () => {
      const { limits } = opened(open);
      const key = limitedKey({ rpm: 10, tpm: 1_000 });
      const first = await limits.admit(key);
      // OpenAI's resets are durations from the wall clock's now, not the limiter's.
      const reset = expect.stringMatching(/^(\d+ms|\d+s|\d+m\d+s)$/) as unknown;
      expect(first.headers('chat')).toEqual({
        'x-ratelimit-limit-requests': '10',
        'x-ratelimit-remaining-requests': '9',
        'x-ratelimit-reset-requests': reset,
        'x-ratelimit-limit-tokens': '1000',
        'x-ratelimit-remaining-tokens': '1000',
        'x-ratelimit-reset-tokens': reset,
      });
      first.finish(250);
      const second = await limits.admit(key);
      expect(second.addHeaders({ 'x-request-id': 'r' }, 'messages')).toMatchObject({
        'x-request-id': 'r',
        'anthropic-ratelimit-requests-remaining': '8',
        'anthropic-ratelimit-tokens-remaining': '750',
        'anthropic-ratelimit-tokens-reset': '2026-11-26T12:01:00Z',
      });
    });

    it('frees a concurrency slot once however often the call is finished, and refuses with a 429 while none is free', async () => {
      const { limits } = opened(open);
      const key = limitedKey({ concurrency: 1 });
      const held = await limits.admit(key);
      expect(held.headers('chat')).toEqual({});
      await expect(Promise.resolve(limits.admit(key))).rejects.toBeInstanceOf(RateLimitedError);
      held.finish(0, false);
      held.finish(0);
      const next = await limits.admit(key);
      await expect(Promise.resolve(limits.admit(key))).rejects.toMatchObject({ status: 429, code: 'rate_limited' });
      next.finish(0);
    });

    it("holds a call's worst case until it ends and refuses one that no longer fits with a 402", async () => {
      const { limits, budgets } = opened(open, 100n);
      const key = limitedKey({ budgetNanoUsd: 1_000n });
      const first = await limits.admit(key);
      expect(first.reserves).toBe(true);
      // The key's account is read once, on its first reservation.
      await first.reserve('a', 800n);
      const second = await limits.admit(key);
      await expect(Promise.resolve(second.reserve('b', 101n))).rejects.toMatchObject({ status: 402, code: 'budget_exhausted' });
      second.finish(0, false);
      budgets.settle(settledEntry('a', 50n, Date.parse('2026-11-26T12:00:30.000Z')));
      first.finish(0);
      first.finish(0);
      const third = await limits.admit(key);
      expect(third.reserve('c', 850n)).toBeUndefined();
      await expect(Promise.resolve((await limits.admit(key)).reserve('d', 1n))).rejects.toThrow('budget');
    });

    it("keeps a video job's reservation past the call, and gives it back when the job is never made", async () => {
      const { limits } = opened(open);
      const key = limitedKey({ budgetNanoUsd: 1_000n });
      const kept = await limits.admit(key);
      await kept.reserveUntilEntry('job_kept', 600n);
      kept.finish(0);
      const lost = await limits.admit(key);
      await lost.reserveUntilEntry('job_lost', 400n);
      await expect(Promise.resolve((await limits.admit(key)).reserve('e', 1n))).rejects.toThrow('budget');
      lost.finish(0, false);
      lost.finish(0);
      await expect(Promise.resolve((await limits.admit(key)).reserve('f', 400n))).resolves.toBeUndefined();
    });

    it('lets a key without limits or budgets through with no headers and nothing to reserve', async () => {
      const { limits } = opened(open);
      const call = await limits.admit(limitedKey({}));
      expect(call.reserves).toBe(false);
      expect(call.reserve('g', 10n ** 18n)).toBeUndefined();
      expect(call.headers('responses')).toEqual({});
      call.finish(10);
      expect((await limits.admit(undefined)).headers(undefined)).toEqual({});
    });
  });
}
