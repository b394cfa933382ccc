import { describe, expect, it } from 'vitest';
import { apiKeyRecord } from '../../keys/api-key-record.js';
import type { KeySpend } from '../../metering/usage-ledger.js';
import { ledgerEntry } from '../../storage/storage-contract-records.test-support.js';
import type { BudgetMeter } from './budget-meter.js';

/** Makes a fresh meter (nothing reserved, no totals known) over the stored totals `readSpend` gives. */
export type OpenBudgetMeter = (readSpend: (keyId: string, at: Date) => Promise<KeySpend>, now: () => number, reservationTtlMs?: number) => BudgetMeter;

export const budgetedKey = (settings: { budgetNanoUsd?: bigint; dailyBudgetNanoUsd?: bigint; monthlyBudgetNanoUsd?: bigint }, id = 'key_1') =>
  apiKeyRecord({ id, name: 'k', prefix: 'sy-x', hash: 'h', createdAt: new Date(0), ...settings });

export const noon = Date.parse('2026-11-26T12:00:00.000Z');

export const settledEntry = (requestId: string, cost: bigint, at = noon, keyId = 'key_1') =>
  ledgerEntry({ requestId, keyId, costNanoUsd: cost, createdAt: new Date(at) });

/** Stored totals that count how often they were read. */
export function storedSpend(spend: KeySpend) {
  let reads = 0;
  return {
    read: async () => {
      reads += 1;
      return spend;
    },
    reads: () => reads,
  };
}

/**
 * What every BudgetMeter must do, whichever store holds reservations: the in-memory meter and
 * the one shared through Redis run these same tests.
 */
export function describeBudgetMeterContract(name: string, open: OpenBudgetMeter): void {
  describe(`${name} budget meter contract`, () => {
    it('reserves worst cases until they no longer fit, reading the stored totals once', async () => {
      const stored = storedSpend({ total: 600n, month: 600n, day: 0n });
      const budgets = open(stored.read, () => noon);
      const limited = budgetedKey({ budgetNanoUsd: 1_000n });
      await budgets.reserve(limited, 'a', 200n);
      await budgets.reserve(limited, 'b', 200n);
      await expect(Promise.resolve(budgets.reserve(limited, 'c', 1n))).rejects.toThrow(
        "This API key's budget of $0.000001 has no room for this request: it could cost up to $0.000000001 and $0.0000004 is left beside requests in flight.",
      );
      await expect(Promise.resolve(budgets.reserve(limited, 'c', 1n))).rejects.toMatchObject({ code: 'budget_exhausted', status: 402 });
      expect(stored.reads()).toBe(1);
    });

    it('settles a reservation to the real cost, and releases one that has no entry', async () => {
      const budgets = open(storedSpend({ total: 0n, month: 0n, day: 0n }).read, () => noon);
      const limited = budgetedKey({ budgetNanoUsd: 1_000n });
      await budgets.reserve(limited, 'a', 900n);
      await expect(Promise.resolve(budgets.reserve(limited, 'b', 200n))).rejects.toThrow();
      budgets.settle(settledEntry('a', 100n));
      await budgets.reserve(limited, 'b', 900n);
      budgets.release('key_1', 'b');
      await budgets.reserve(limited, 'c', 900n);
      await expect(Promise.resolve(budgets.reserve(limited, 'd', 1n))).rejects.toThrow('$0.0000009 is left beside requests in flight');
    });

    it('checks the daily and monthly budgets against the spend of the current UTC day and month', async () => {
      let now = noon;
      const budgets = open(storedSpend({ total: 5_000n, month: 800n, day: 500n }).read, () => now);
      const daily = budgetedKey({ dailyBudgetNanoUsd: 600n, monthlyBudgetNanoUsd: 1_000n });
      await expect(Promise.resolve(budgets.reserve(daily, 'a', 101n))).rejects.toThrow('daily budget');
      await budgets.reserve(daily, 'a', 100n);
      budgets.settle(settledEntry('a', 100n));
      now = Date.parse('2026-11-27T00:00:01.000Z');
      // A new day: the day's spend starts from nothing, the month's goes on.
      await expect(Promise.resolve(budgets.reserve(daily, 'b', 1n))).resolves.toBeUndefined();
      budgets.release('key_1', 'b');
      await expect(Promise.resolve(budgets.reserve(daily, 'c', 101n))).rejects.toThrow('monthly budget');
      now = Date.parse('2026-12-01T00:00:01.000Z');
      await expect(Promise.resolve(budgets.reserve(daily, 'd', 600n))).resolves.toBeUndefined();
    });

    it('counts an entry of a new day in that day', async () => {
      let now = noon;
      const budgets = open(storedSpend({ total: 0n, month: 0n, day: 0n }).read, () => now);
      const daily = budgetedKey({ dailyBudgetNanoUsd: 1_000n });
      await budgets.reserve(daily, 'a', 100n);
      now = Date.parse('2026-11-27T00:00:01.000Z');
      budgets.settle(settledEntry('a', 700n, now));
      await expect(Promise.resolve(budgets.reserve(daily, 'b', 301n))).rejects.toThrow('daily budget');
      await expect(Promise.resolve(budgets.reserve(daily, 'b', 300n))).resolves.toBeUndefined();
    });

    it('counts an entry settled after midnight in the day its call began, not the new one', async () => {
      let now = noon;
      const budgets = open(storedSpend({ total: 0n, month: 0n, day: 0n }).read, () => now);
      const daily = budgetedKey({ dailyBudgetNanoUsd: 1_000n, monthlyBudgetNanoUsd: 1_500n });
      await budgets.reserve(daily, 'a', 100n);
      await budgets.reserve(daily, 'b', 100n);
      budgets.settle(settledEntry('a', 600n, noon));
      now = Date.parse('2026-11-27T00:00:01.000Z');
      budgets.settle(settledEntry('b', 700n, noon));
      // Yesterday's 1,300 leave today's budget whole; the month has 200 left.
      await expect(Promise.resolve(budgets.reserve(daily, 'c', 201n))).rejects.toThrow('monthly budget');
      await expect(Promise.resolve(budgets.reserve(daily, 'c', 200n))).resolves.toBeUndefined();
    });

    it("holds a call's reservation until the call ends, its entry's cost counted once", async () => {
      const budgets = open(storedSpend({ total: 0n, month: 0n, day: 0n }).read, () => noon);
      const limited = budgetedKey({ budgetNanoUsd: 1_000n });
      const first = await budgets.reserveForCall(limited, 'a', 900n);
      await expect(Promise.resolve(budgets.reserveForCall(limited, 'b', 200n))).rejects.toMatchObject({ code: 'budget_exhausted', status: 402 });
      budgets.settle(settledEntry('a', 100n));
      first.end(true);
      first.end(true);
      const second = await budgets.reserveForCall(limited, 'c', 900n);
      await expect(Promise.resolve(budgets.reserveForCall(limited, 'd', 1n))).rejects.toThrow('$0.0000009 is left beside requests in flight');
      // A call with no entry gives its whole reservation back.
      second.end(false);
      await expect(Promise.resolve(budgets.reserveForCall(limited, 'e', 900n))).resolves.toBeDefined();
    });

    it("counts a call's reservations beside those that wait for an entry", async () => {
      const budgets = open(storedSpend({ total: 0n, month: 0n, day: 0n }).read, () => noon);
      const limited = budgetedKey({ budgetNanoUsd: 1_000n });
      await budgets.reserve(limited, 'job', 600n);
      const call = await budgets.reserveForCall(limited, 'call', 400n);
      await expect(Promise.resolve(budgets.reserve(limited, 'other', 1n))).rejects.toThrow();
      call.end(false);
      budgets.settle(settledEntry('job', 500n));
      await expect(Promise.resolve(budgets.reserveForCall(limited, 'next', 501n))).rejects.toThrow();
      await expect(Promise.resolve(budgets.reserveForCall(limited, 'next', 500n))).resolves.toBeDefined();
    });

    it('lets a reservation nobody settled expire', async () => {
      let now = noon;
      const budgets = open(storedSpend({ total: 0n, month: 0n, day: 0n }).read, () => now, 1_000);
      const limited = budgetedKey({ budgetNanoUsd: 100n });
      await budgets.reserve(limited, 'lost', 100n);
      await expect(Promise.resolve(budgets.reserve(limited, 'next', 1n))).rejects.toThrow();
      now += 1_000;
      await expect(Promise.resolve(budgets.reserve(limited, 'next', 100n))).resolves.toBeUndefined();
    });

    it('keeps keys apart', async () => {
      const budgets = open(storedSpend({ total: 0n, month: 0n, day: 0n }).read, () => noon);
      await budgets.reserve(budgetedKey({ budgetNanoUsd: 100n }), 'a', 100n);
      await expect(Promise.resolve(budgets.reserve(budgetedKey({ budgetNanoUsd: 100n }, 'key_2'), 'b', 100n))).resolves.toBeUndefined();
    });

    it('lets keys without a budget through without reading anything', async () => {
      const stored = storedSpend({ total: 10n ** 18n, month: 0n, day: 0n });
      const budgets = open(stored.read, () => noon);
      await budgets.reserve(budgetedKey({}), 'a', 10n ** 15n);
      (await budgets.reserveForCall(budgetedKey({}), 'b', 10n ** 15n)).end(true);
      expect(stored.reads()).toBe(0);
    });
  });
}
