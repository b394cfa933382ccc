import { describe, expect, it } from 'vitest';
import type { Storage } from './ports.js';
import { at, ledgerEntry } from './storage-contract-records.test-support.js';
import { videoJob } from './storage-contract-video-jobs.test-support.js';

/** Running spend totals: kept with the ledger, so they always equal a sum over it. */
export function describeSpendContract(current: () => Storage): void {
  describe('running spend totals', () => {
    it('answers zero for a key that never spent', async () => {
      expect(await current().ledger.spend('key_none', at('2026-03-01T12:00:00.000Z'))).toEqual({ total: 0n, month: 0n, day: 0n });
    });

    it('sums a key by its whole life, the UTC month and the UTC day of the time asked about', async () => {
      const ledger = current().ledger;
      await ledger.appendMany([
        ledgerEntry({ requestId: 'a', keyId: 'key_1', costNanoUsd: 100n, createdAt: at('2026-02-27T23:59:59.999Z') }),
        ledgerEntry({ requestId: 'b', keyId: 'key_1', costNanoUsd: 20n, createdAt: at('2026-03-01T00:00:00.000Z') }),
        ledgerEntry({ requestId: 'c', keyId: 'key_1', costNanoUsd: 3n, createdAt: at('2026-03-02T10:00:00.000Z') }),
        ledgerEntry({ requestId: 'd', keyId: 'key_2', costNanoUsd: 5_000n, createdAt: at('2026-03-02T10:00:00.000Z') }),
        ledgerEntry({ requestId: 'e', keyId: null, costNanoUsd: 7_000n, createdAt: at('2026-03-02T10:00:00.000Z') }),
      ]);
      expect(await ledger.spend('key_1', at('2026-03-02T23:00:00.000Z'))).toEqual({ total: 123n, month: 23n, day: 3n });
      expect(await ledger.spend('key_1', at('2026-03-01T05:00:00.000Z'))).toEqual({ total: 123n, month: 23n, day: 20n });
      expect(await ledger.spend('key_1', at('2026-02-27T05:00:00.000Z'))).toEqual({ total: 123n, month: 100n, day: 100n });
      expect(await ledger.spend('key_2', at('2026-03-02T23:00:00.000Z'))).toEqual({ total: 5_000n, month: 5_000n, day: 5_000n });
    });

    it('counts a request id once, however often and however concurrently it is appended', async () => {
      const ledger = current().ledger;
      const entry = ledgerEntry({ requestId: 'same', costNanoUsd: 1_000n, createdAt: at('2026-03-02T10:00:00.000Z') });
      await ledger.appendMany([entry, entry]);
      await Promise.all([ledger.append(entry), ledger.appendMany([entry]), ledger.append({ ...entry, costNanoUsd: 9n })]);
      expect(await ledger.spend('key_1', at('2026-03-02T10:00:00.000Z'))).toEqual({ total: 1_000n, month: 1_000n, day: 1_000n });
    });

    it('keeps totals above 2^53 nano-USD exactly', async () => {
      const big = 2n ** 60n + 7n;
      await current().ledger.appendMany([ledgerEntry({ requestId: 'x', costNanoUsd: big }), ledgerEntry({ requestId: 'y', costNanoUsd: big })]);
      expect((await current().ledger.spend('key_1', at('2025-03-01T12:00:00.000Z'))).total).toBe(big * 2n);
    });

    it("adds a finished video job's charge to its key's totals, once", async () => {
      const storage = current();
      await storage.videoJobs.insert(videoJob({ id: 'video_spend' }));
      const entry = ledgerEntry({ requestId: 'video_spend', endpoint: 'videos', costNanoUsd: 800_000_000n, createdAt: at('2026-03-01T12:05:00.000Z') });
      const ending = { status: 'completed' as const, at: at('2026-03-01T12:05:00.000Z'), deliveredSeconds: 8, costNanoUsd: 800_000_000n, ledgerEntry: entry };
      expect(await storage.videoJobs.finish('video_spend', ending)).toBe(true);
      expect(await storage.videoJobs.finish('video_spend', ending)).toBe(false);
      expect(await storage.ledger.spend('key_1', at('2026-03-01T13:00:00.000Z'))).toEqual({ total: 800_000_000n, month: 800_000_000n, day: 800_000_000n });
    });
  });
}
