import { describe, expect, it } from 'vitest';
import type { VideoJobEnding, VideoJobStore } from './video-job-store.js';
import type { LedgerEntry } from '../../metering/ledger-entry.js';
import { ledgerEntry } from '../../storage/storage-contract-records.test-support.js';
import { chargingVideoJobStore } from './charging-video-job-store.js';

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

const ending: VideoJobEnding = { status: 'completed', at: new Date(), costNanoUsd: 1n, ledgerEntry: ledgerEntry({ requestId: 'video_1', endpoint: 'videos' }) };

describe('chargingVideoJobStore', () => {
  it('hands on the ledger entry of a job this call ended', async () => {
    const seen: LedgerEntry[] = [];
    const store = chargingVideoJobStore(storeWhoseFinishAnswers(true), (entry) => seen.push(entry));
    expect(await store.finish('video_1', ending, 'worker')).toBe(true);
    expect(seen).toEqual([ending.ledgerEntry]);
  });

  it('hands on nothing when the job had already ended elsewhere', async () => {
    const seen: LedgerEntry[] = [];
    const store = chargingVideoJobStore(storeWhoseFinishAnswers(false), (entry) => seen.push(entry));
    expect(await store.finish('video_1', ending, 'worker')).toBe(false);
    expect(seen).toEqual([]);
  });

  it('passes every other call through', async () => {
    const store = chargingVideoJobStore(storeWhoseFinishAnswers(true), () => undefined);
    expect(await store.countByStatus()).toEqual({ queued: 1 });
    await expect(store.get('video_1')).rejects.toThrow('not used');
  });
});
