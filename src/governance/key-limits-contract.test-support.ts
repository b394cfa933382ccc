import { describe, expect, it } from 'vitest';
import { InProcessBudgetMeter } from './budgets/in-process-budget-meter.js';
import { settledEntry, storedSpend } from './budgets/budget-meter-contract.test-support.js';
import { apiKeyRecord } from '../keys/api-key-record.js';
import type { ApiKeyRecord } from '../keys/api-key.js';
import type { KeyLimits } from './key-limits.js';
import { testClock } from './rate-limits/key-rate-limiter-contract.test-support.js';
import { InProcessKeyRateLimiter } from './rate-limits/in-process-key-rate-limiter.js';
import { RateLimitedError } from './rate-limits/rate-limited-error.js';

/** Makes key limits over a fresh in-memory limiter and meter, the way one implementation composes them. */
export type OpenKeyLimits = (rates: InProcessKeyRateLimiter, budgets: InProcessBudgetMeter) => KeyLimits;

const limitedKey = (settings: Partial<Pick<ApiKeyRecord, 'rpm' | 'tpm' | 'concurrency' | 'budgetNanoUsd'>>): ApiKeyRecord =>
  apiKeyRecord({ id: 'key_1', name: 'k', prefix: 'sy-x', hash: 'h', createdAt: new Date(0), ...settings });

/** An entry of `tokens` input tokens at no cost. */
const tokensEntry = (requestId: string, tokens: number) => ({ ...settledEntry(requestId, 0n), inputUncached: tokens, cacheRead: 0, cacheWrite: 0, output: 0, reasoning: 0 });

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
      first.finish(tokensEntry('r1', 250));
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
      held.finish();
      held.finish();
      const next = await limits.admit(key);
      await expect(Promise.resolve(limits.admit(key))).rejects.toMatchObject({ status: 429, code: 'rate_limited' });
      next.finish();
    });

    it("holds a call's worst case until it ends and refuses one that no longer fits with a 402", async () => {
      const { limits } = opened(open, 100n);
      const key = limitedKey({ budgetNanoUsd: 1_000n });
      const first = await limits.admit(key);
      expect(first.reserves).toBe(true);
      // The key's account is read once, on its first reservation.
      await first.reserve('a', 800n);
      const second = await limits.admit(key);
      await expect(Promise.resolve(second.reserve('b', 101n))).rejects.toMatchObject({ status: 402, code: 'budget_exhausted' });
      second.finish();
      const third = await limits.admit(key);
      await expect(Promise.resolve(third.reserve('c', 101n))).rejects.toThrow('budget');
      third.finish();
    });

    it("settles a call's reservation to its ledger entry when the call finishes with it, with nothing else told", async () => {
      const { limits } = opened(open, 100n);
      const key = limitedKey({ budgetNanoUsd: 1_000n });
      const first = await limits.admit(key);
      await first.reserve('a', 800n);
      first.finish(settledEntry('a', 50n, Date.parse('2026-11-26T12:00:30.000Z')));
      first.finish(settledEntry('a', 50n, Date.parse('2026-11-26T12:00:30.000Z')));
      // 100 stored + 50 settled: exactly 850 is left, and the settled entry counts once.
      const second = await limits.admit(key);
      await expect(Promise.resolve(second.reserve('b', 851n))).rejects.toThrow('budget');
      second.finish();
      const third = await limits.admit(key);
      expect(await Promise.resolve(third.reserve('c', 850n))).toBeUndefined();
      third.finish();
    });

    it('gives a reservation back whole when the call finishes with no entry', async () => {
      const { limits } = opened(open);
      const key = limitedKey({ budgetNanoUsd: 1_000n });
      const lost = await limits.admit(key);
      await lost.reserve('a', 1_000n);
      lost.finish();
      const next = await limits.admit(key);
      expect(await Promise.resolve(next.reserve('b', 1_000n))).toBeUndefined();
    });

    it("keeps a video job's reservation past the call until the job's entry settles it, and gives it back when the job is never made", async () => {
      const { limits, budgets } = opened(open);
      const key = limitedKey({ budgetNanoUsd: 1_000n });
      const kept = await limits.admit(key);
      await kept.reserveForJob('job_kept', 600n);
      kept.finish();
      const lost = await limits.admit(key);
      const reservation = await lost.reserveForJob('job_lost', 400n);
      await expect(Promise.resolve((await limits.admit(key)).reserve('e', 1n))).rejects.toThrow('budget');
      reservation.release();
      lost.finish();
      expect(await Promise.resolve((await limits.admit(key)).reserve('f', 400n))).toBeUndefined();
      await expect(Promise.resolve((await limits.admit(key)).reserve('g', 1n))).rejects.toThrow('budget');
      // The job ends, wherever: its entry settles the reservation filed under its id.
      budgets.settle(settledEntry('job_kept', 200n, Date.parse('2026-11-26T12:00:30.000Z')));
      expect(await Promise.resolve((await limits.admit(key)).reserve('h', 400n))).toBeUndefined();
      await expect(Promise.resolve((await limits.admit(key)).reserve('i', 1n))).rejects.toThrow('budget');
    });

    it('lets a key without limits or budgets through with no headers and nothing to reserve', async () => {
      const { limits } = opened(open);
      const call = await limits.admit(limitedKey({}));
      expect(call.reserves).toBe(false);
      expect(call.reserve('g', 10n ** 18n)).toBeUndefined();
      expect(call.headers('responses')).toEqual({});
      call.finish(tokensEntry('g', 10));
      expect((await limits.admit(undefined)).headers(undefined)).toEqual({});
    });
  });
}
