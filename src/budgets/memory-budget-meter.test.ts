import { describe, expect, it } from 'vitest';
import { apiKeyRecord } from '../keys/api-key-record.js';
import type { KeySpend } from '../storage/ports.js';
import { ledgerEntry } from '../storage/storage-contract-records.js';
import { MemoryBudgetMeter } from './memory-budget-meter.js';

const key = (settings: { budgetNanoUsd?: bigint; dailyBudgetNanoUsd?: bigint; monthlyBudgetNanoUsd?: bigint }) =>
  apiKeyRecord({ id: 'key_1', name: 'k', prefix: 'sy-x', hash: 'h', createdAt: new Date(0), ...settings });

function meter(stored: KeySpend, now: () => number, ttlMs?: number) {
  let reads = 0;
  const budgets = new MemoryBudgetMeter(
    async () => {
      reads += 1;
      return stored;
    },
    now,
    ttlMs,
  );
  return { budgets, reads: () => reads };
}

const noon = Date.parse('2026-11-26T12:00:00.000Z');
const entry = (requestId: string, cost: bigint, at = noon) => ledgerEntry({ requestId, keyId: 'key_1', costNanoUsd: cost, createdAt: new Date(at) });

describe('in-memory budgets', () => {
  it('reserves worst cases until they no longer fit, reading the stored totals once', async () => {
    const { budgets, reads } = meter({ total: 600n, month: 600n, day: 0n }, () => noon);
    const limited = key({ budgetNanoUsd: 1_000n });
    await budgets.reserve(limited, 'a', 200n);
    await budgets.reserve(limited, 'b', 200n);
    await expect(budgets.reserve(limited, 'c', 1n)).rejects.toThrow('budget of $0.000001');
    expect(reads()).toBe(1);
  });

  it('settles a reservation to the real cost, and releases one that has no entry', async () => {
    const { budgets } = meter({ total: 0n, month: 0n, day: 0n }, () => noon);
    const limited = key({ budgetNanoUsd: 1_000n });
    await budgets.reserve(limited, 'a', 900n);
    await expect(budgets.reserve(limited, 'b', 200n)).rejects.toThrow();
    budgets.settle(entry('a', 100n));
    await budgets.reserve(limited, 'b', 900n);
    budgets.release('key_1', 'b');
    await budgets.reserve(limited, 'c', 900n);
    await expect(budgets.reserve(limited, 'd', 1n)).rejects.toThrow();
  });

  it('checks the daily and monthly budgets against the spend of the current UTC day and month', async () => {
    let now = noon;
    const { budgets } = meter({ total: 5_000n, month: 800n, day: 500n }, () => now);
    const daily = key({ dailyBudgetNanoUsd: 600n, monthlyBudgetNanoUsd: 1_000n });
    await expect(budgets.reserve(daily, 'a', 101n)).rejects.toThrow('daily budget');
    await budgets.reserve(daily, 'a', 100n);
    budgets.settle(entry('a', 100n));
    now = Date.parse('2026-11-27T00:00:01.000Z');
    // A new day: the day's spend starts from nothing, the month's goes on.
    await expect(budgets.reserve(daily, 'b', 1n)).resolves.toBeUndefined();
    budgets.release('key_1', 'b');
    await expect(budgets.reserve(daily, 'c', 101n)).rejects.toThrow('monthly budget');
  });

  it('lets a reservation nobody settled expire', async () => {
    let now = noon;
    const { budgets } = meter({ total: 0n, month: 0n, day: 0n }, () => now, 1_000);
    const limited = key({ budgetNanoUsd: 100n });
    await budgets.reserve(limited, 'lost', 100n);
    await expect(budgets.reserve(limited, 'next', 1n)).rejects.toThrow();
    now += 1_000;
    await expect(budgets.reserve(limited, 'next', 100n)).resolves.toBeUndefined();
  });

  it('lets keys without a budget through without reading anything', async () => {
    const { budgets, reads } = meter({ total: 10n ** 18n, month: 0n, day: 0n }, () => noon);
    await budgets.reserve(key({}), 'a', 10n ** 15n);
    expect(reads()).toBe(0);
  });
});
