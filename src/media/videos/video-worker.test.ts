import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../logging/logger.js';
import type { VideoJobProgressPatch, VideoJobStore } from './video-job-store.js';
import { videoJob } from '../../storage/storage-contract-video-jobs.test-support.js';
import type { VideoWorkContext } from './video-work-context.js';
import { VideoWorker } from './video-worker.js';

const silent = createLogger('info', new Writable({ write: (_chunk, _encoding, callback) => callback() }));
const videos = { concurrency: 2, lease_seconds: 30, claim_interval_ms: 60_000, poll_interval_ms: 1000, max_poll_interval_ms: 10_000, deadline_seconds: 3600, expected_render_seconds: 90 };

/** A store handing out one job whose step never ends (its `finish` hangs), and noting lease patches. */
function hangingStore(): { store: VideoJobStore; patches: { id: string; owner: string; patch: VideoJobProgressPatch }[] } {
  let handedOut = false;
  const patches: { id: string; owner: string; patch: VideoJobProgressPatch }[] = [];
  const store = {
    claimDue: async () => {
      if (handedOut) return [];
      handedOut = true;
      // No upstream id yet: the step ends the job, and that write hangs.
      return [videoJob({ id: 'video_stuck', upstreamJobId: null })];
    },
    finish: () => new Promise<boolean>(() => {}),
    updateLeased: async (id: string, owner: string, patch: VideoJobProgressPatch) => {
      patches.push({ id, owner, patch });
      return true;
    },
  } as Partial<VideoJobStore> as VideoJobStore;
  return { store, patches };
}

describe('stopping the video worker', () => {
  it('releases the lease of a step still running after the wait, so another instance takes the job at once', async () => {
    const { store, patches } = hangingStore();
    const context = { store, owner: 'me', videos, logger: silent, now: () => new Date() } as Partial<VideoWorkContext> as VideoWorkContext;
    const worker = new VideoWorker(context);
    worker.start();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const startedAt = Date.now();
    await worker.stop(50);
    expect(Date.now() - startedAt).toBeLessThan(1_000);
    expect(patches).toEqual([{ id: 'video_stuck', owner: 'me', patch: { leaseExpiresAt: null } }]);
  });
});
