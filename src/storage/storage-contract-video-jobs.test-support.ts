import { describe, expect, it } from 'vitest';
import type { VideoJobEnding, VideoJobRecord } from '../media/videos/video-job-store.js';
import type { Storage } from './ports.js';
import { at, ledgerEntry } from './storage-contract-records.test-support.js';

/** A queued job due at 12:00, with the fields a test cares about overridden. */
export function videoJob(overrides: Partial<VideoJobRecord> = {}): VideoJobRecord {
  return {
    id: 'video_1',
    keyId: 'key_1',
    idempotencyKey: null,
    requestHash: null,
    model: 'sim-video',
    provider: 'sim-openai',
    upstreamModel: 'sim-video-upstream',
    upstreamJobId: 'up_1',
    prompt: 'a lighthouse',
    mode: 'text-to-video',
    resolution: '720p',
    aspectRatio: '16:9',
    size: '1280x720',
    seconds: 8,
    remixedFromVideoId: null,
    pricePerSecondPicoUsd: 100_000_000_000n,
    status: 'queued',
    progress: 0,
    errorCode: null,
    errorMessage: null,
    createdAt: at('2026-03-01T11:59:00.000Z'),
    completedAt: null,
    expiresAt: null,
    deadlineAt: at('2026-03-01T13:00:00.000Z'),
    nextPollAt: at('2026-03-01T12:00:00.000Z'),
    pollAttempts: 0,
    leaseOwner: null,
    leaseExpiresAt: null,
    deliveredSeconds: null,
    costNanoUsd: null,
    contents: {},
    deletedAt: null,
    ...overrides,
  };
}

const noon = at('2026-03-01T12:00:00.000Z');
const later = (seconds: number): Date => new Date(noon.getTime() + seconds * 1000);

function completed(job: VideoJobRecord): VideoJobEnding {
  return {
    status: 'completed',
    at: later(30),
    expiresAt: later(3600),
    deliveredSeconds: 8,
    costNanoUsd: 800_000_000n,
    contents: { video: `videos/${job.id}/video` },
    ledgerEntry: ledgerEntry({ requestId: job.id, endpoint: 'videos', videoSeconds: 8, costNanoUsd: 800_000_000n }),
  };
}

/** The video job store's contract, run inside the storage contract for every adapter. */
export function describeVideoJobContract(current: () => Storage): void {
  describe('video jobs', () => {
    it('keeps every field, money beyond 2^53 included', async () => {
      const job = videoJob({ pricePerSecondPicoUsd: 9_007_199_254_740_993n, costNanoUsd: 9_007_199_254_740_995n, contents: { video: 'videos/a/video' }, idempotencyKey: 'k', requestHash: 'sha256:abc' });
      expect(await current().videoJobs.insert(job)).toEqual({ job, created: true });
      expect(await current().videoJobs.get(job.id)).toEqual(job);
    });

    it('gives a retried submit the job of its idempotency key, per key, keyless jobs included', async () => {
      const store = current().videoJobs;
      const first = videoJob({ id: 'video_a', idempotencyKey: 'same' });
      await store.insert(first);
      expect(await store.insert(videoJob({ id: 'video_b', idempotencyKey: 'same' }))).toEqual({ job: first, created: false });
      expect((await store.insert(videoJob({ id: 'video_c', keyId: 'key_2', idempotencyKey: 'same' }))).created).toBe(true);
      await store.insert(videoJob({ id: 'video_d', keyId: null, idempotencyKey: 'same' }));
      expect((await store.insert(videoJob({ id: 'video_e', keyId: null, idempotencyKey: 'same' }))).job.id).toBe('video_d');
      expect((await store.insert(videoJob({ id: 'video_f', idempotencyKey: null }))).created).toBe(true);
      expect((await store.insert(videoJob({ id: 'video_g', idempotencyKey: null }))).created).toBe(true);
      const raced = await Promise.all(Array.from({ length: 10 }, (_, index) => store.insert(videoJob({ id: `video_race_${index}`, idempotencyKey: 'raced' }))));
      expect(raced.filter((outcome) => outcome.created)).toHaveLength(1);
      expect(new Set(raced.map((outcome) => outcome.job.id)).size).toBe(1);
    });

    it('lets each due job be claimed by exactly one of many concurrent claimers', async () => {
      const store = current().videoJobs;
      for (let index = 0; index < 12; index++) await store.insert(videoJob({ id: `video_${String(index).padStart(2, '0')}` }));
      await store.insert(videoJob({ id: 'video_not_due', nextPollAt: later(60) }));
      await store.insert(videoJob({ id: 'video_done', status: 'completed' }));
      const claims = await Promise.all(['a', 'b', 'c', 'd'].map((owner) => store.claimDue(owner, noon, later(30), 5)));
      const ids = claims.flat().map((job) => job.id);
      expect(ids.sort()).toEqual(Array.from({ length: 12 }, (_, index) => `video_${String(index).padStart(2, '0')}`));
      for (const [index, owner] of ['a', 'b', 'c', 'd'].entries()) expect(claims[index]?.every((job) => job.leaseOwner === owner)).toBe(true);
      expect(await store.claimDue('e', later(10), later(40), 50)).toEqual([]);
      // Once the leases have run out, another owner may take the jobs over.
      expect(await store.claimDue('e', later(31), later(60), 50)).toHaveLength(12);
    });

    it('claims no more than the limit, the earliest due first', async () => {
      const store = current().videoJobs;
      for (let index = 0; index < 5; index++) await store.insert(videoJob({ id: `video_limit_${index}`, nextPollAt: at(`2026-03-01T11:5${index}:00.000Z`) }));
      const claimed = await store.claimDue('a', noon, later(30), 3);
      expect(claimed.map((job) => job.id).sort()).toEqual(['video_limit_0', 'video_limit_1', 'video_limit_2']);
      expect(await store.claimDue('b', noon, later(30), 10)).toHaveLength(2);
    });

    it('applies a worker patch only for the lease holder, and never lowers progress', async () => {
      const store = current().videoJobs;
      await store.insert(videoJob());
      await store.claimDue('worker', noon, later(30), 1);
      expect(await store.updateLeased('video_1', 'intruder', { progress: 50 })).toBe(false);
      expect(await store.updateLeased('video_1', 'worker', { progress: 40, status: 'in_progress', provider: 'other', upstreamModel: 'm2', upstreamJobId: 'up_2' })).toBe(true);
      expect(await store.updateLeased('video_1', 'worker', { progress: 10, pollAttempts: 3, nextPollAt: later(5), leaseExpiresAt: null })).toBe(true);
      expect(await store.get('video_1')).toMatchObject({ progress: 40, status: 'in_progress', provider: 'other', upstreamModel: 'm2', upstreamJobId: 'up_2', pollAttempts: 3, nextPollAt: later(5), leaseOwner: null, leaseExpiresAt: null });
      expect(await store.updateLeased('video_1', 'worker', { progress: 60 })).toBe(false);
    });

    it('ends a job once, with its one ledger entry in the same step', async () => {
      const store = current().videoJobs;
      const job = videoJob();
      await store.insert(job);
      await store.claimDue('worker', noon, later(30), 1);
      expect(await store.finish(job.id, completed(job), 'intruder')).toBe(false);
      const outcomes = await Promise.all([store.finish(job.id, completed(job), 'worker'), store.finish(job.id, { status: 'cancelled', at: later(1), costNanoUsd: 0n, ledgerEntry: ledgerEntry({ requestId: job.id, costNanoUsd: 0n }) })]);
      expect(outcomes.filter(Boolean)).toHaveLength(1);
      const entries = (await current().ledger.list({})).filter((entry) => entry.requestId === job.id);
      expect(entries).toHaveLength(1);
      const ended = await store.get(job.id);
      expect(ended?.leaseOwner).toBeNull();
      if (ended?.status === 'completed') {
        expect(ended).toMatchObject({ progress: 100, completedAt: later(30), expiresAt: later(3600), deliveredSeconds: 8, costNanoUsd: 800_000_000n, contents: { video: 'videos/video_1/video' } });
        expect(entries[0]?.costNanoUsd).toBe(800_000_000n);
      } else {
        expect(ended).toMatchObject({ status: 'cancelled', costNanoUsd: 0n });
        expect(entries[0]?.costNanoUsd).toBe(0n);
      }
      expect(await store.updateLeased(job.id, 'worker', { progress: 5 })).toBe(false);
      expect(await store.claimDue('worker', later(100), later(130), 5)).toEqual([]);
    });

    it('lists a key’s jobs a page at a time in either order, leaving out others and deleted ones', async () => {
      const store = current().videoJobs;
      for (let index = 0; index < 5; index++) await store.insert(videoJob({ id: `video_${index}`, createdAt: later(index) }));
      await store.insert(videoJob({ id: 'video_other_key', keyId: 'key_2' }));
      await store.insert(videoJob({ id: 'video_keyless', keyId: null }));
      const newest = await store.list({ keyId: 'key_1', limit: 2, order: 'desc' });
      expect(newest.jobs.map((job) => job.id)).toEqual(['video_4', 'video_3']);
      expect(newest.hasMore).toBe(true);
      const rest = await store.list({ keyId: 'key_1', limit: 5, order: 'desc', after: 'video_3' });
      expect(rest).toMatchObject({ jobs: [{ id: 'video_2' }, { id: 'video_1' }, { id: 'video_0' }], hasMore: false });
      expect((await store.list({ keyId: 'key_1', limit: 2, order: 'asc', after: 'video_1' })).jobs.map((job) => job.id)).toEqual(['video_2', 'video_3']);
      expect((await store.list({ keyId: null, limit: 10, order: 'asc' })).jobs.map((job) => job.id)).toEqual(['video_keyless']);
      expect(await store.list({ keyId: 'key_1', limit: 10, order: 'asc', after: 'video_other_key' })).toEqual({ jobs: [], hasMore: false });

      const before = await store.markDeleted('video_2', later(60));
      expect(before?.id).toBe('video_2');
      expect(await store.markDeleted('video_2', later(61))).toBeUndefined();
      expect(await store.get('video_2')).toBeUndefined();
      expect((await store.list({ keyId: 'key_1', limit: 10, order: 'asc' })).jobs.map((job) => job.id)).toEqual(['video_0', 'video_1', 'video_3', 'video_4']);
      expect((await store.claimDue('worker', later(100), later(130), 10)).map((job) => job.id)).not.toContain('video_2');
    });

    it('counts jobs by state, of every key, leaving deleted ones out', async () => {
      const store = current().videoJobs;
      expect(await store.countByStatus()).toEqual({});
      await store.insert(videoJob({ id: 'video_q1' }));
      await store.insert(videoJob({ id: 'video_q2', keyId: null }));
      await store.insert(videoJob({ id: 'video_p', status: 'in_progress', keyId: 'key_2' }));
      await store.insert(videoJob({ id: 'video_c', status: 'completed' }));
      await store.insert(videoJob({ id: 'video_gone', status: 'failed' }));
      await store.markDeleted('video_gone', later(1));
      expect(await store.countByStatus()).toEqual({ queued: 2, in_progress: 1, completed: 1 });
    });
  });
}
