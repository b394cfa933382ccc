import { describe, expect, it } from 'vitest';
import { InProcessBudgetMeter } from '../../governance/budgets/in-process-budget-meter.js';
import { budgetedKey, noon, storedSpend } from '../../governance/budgets/budget-meter-contract.test-support.js';
import type { LedgerEntry } from '../../metering/ledger-entry.js';
import { ledgerEntry, mediaOnly } from '../../storage/storage-contract-records.test-support.js';
import type { VideoJobEnding, VideoJobStore } from './video-job-store.js';
import { settlingVideoJobStore } from './settling-video-job-store.js';

function storeWhoseFinishAnswers(ended: boolean): VideoJobStore {
  const refuse = () => Promise.reject(new Error('not used'));
  return {
    insert: refuse,
    get: refuse,
    list: refuse,
    claimDue: refuse,
    updateLeased: refuse,
    finish: async () => ended,
    markDeleted: refuse,
    listAll: refuse,
    countByStatus: async () => ({ queued: 1 }),
  };
}

const ending: VideoJobEnding = {
  status: 'completed',
  at: new Date(noon),
  costNanoUsd: 100n,
  ledgerEntry: ledgerEntry({ requestId: 'video_1', endpoint: 'videos', ...mediaOnly, videoSeconds: 1, costNanoUsd: 100n, createdAt: new Date(noon) }),
};

/** A key with a budget of 1,000 whose job `video_1` reserved 900 of it at submit. */
async function reservedForJob() {
  const budgets = new InProcessBudgetMeter(storedSpend({ total: 0n, month: 0n, day: 0n }).read, () => noon);
  const key = budgetedKey({ budgetNanoUsd: 1_000n });
  await budgets.reserve(key, 'video_1', 900n);
  await expect(Promise.resolve(budgets.reserve(key, 'other', 101n))).rejects.toThrow('budget');
  return { budgets, key };
}

describe('the job store the gateway ends video jobs through', () => {
  it("settles the job's reservation to its entry, and counts it, once the job's end is stored", async () => {
    const { budgets, key } = await reservedForJob();
    const observed: LedgerEntry[] = [];
    const store = settlingVideoJobStore(storeWhoseFinishAnswers(true), { budgets, metrics: { observeLedgerEntry: (entry) => observed.push(entry) } });
    expect(await store.finish('video_1', ending, 'worker')).toBe(true);
    expect(observed).toEqual([ending.ledgerEntry]);
    // 900 reserved became 100 spent: exactly 900 is left.
    expect(await Promise.resolve(budgets.reserve(key, 'next', 900n))).toBeUndefined();
    await expect(Promise.resolve(budgets.reserve(key, 'last', 1n))).rejects.toThrow('budget');
  });

  it('settles nothing when the job had already ended elsewhere: that ending settled it', async () => {
    const { budgets, key } = await reservedForJob();
    const observed: LedgerEntry[] = [];
    const store = settlingVideoJobStore(storeWhoseFinishAnswers(false), { budgets, metrics: { observeLedgerEntry: (entry) => observed.push(entry) } });
    expect(await store.finish('video_1', ending, 'worker')).toBe(false);
    expect(observed).toEqual([]);
    await expect(Promise.resolve(budgets.reserve(key, 'other', 101n))).rejects.toThrow('budget');
  });

  it('passes every other call through', async () => {
    const store = settlingVideoJobStore(storeWhoseFinishAnswers(true), { budgets: { settle: () => undefined }, metrics: { observeLedgerEntry: () => undefined } });
    expect(await store.countByStatus()).toEqual({ queued: 1 });
    await expect(store.get('video_1')).rejects.toThrow('not used');
  });
});
