import { describe, expect, it } from 'vitest';
import { parseUsdToPico } from '../catalog/pricing/decimal-usd.js';
import { meterVideoJob, type MeteredVideoJob } from './meter-video-job.js';

const job: MeteredVideoJob = {
  id: 'video_abc',
  keyId: 'key_1',
  model: 'sora-2',
  provider: 'openai',
  upstreamModel: 'sora-2-2025',
  createdAt: new Date('2026-11-26T12:00:00.000Z'),
  pricePerSecondPicoUsd: parseUsdToPico('0.1'),
};
const endedAt = new Date('2026-11-26T12:01:30.000Z');

describe('the ledger entry of a video job', () => {
  it('charges a completed job the seconds delivered at the price fixed at submit, under the job id', () => {
    expect(meterVideoJob(job, endedAt, { status: 'completed', seconds: 8 })).toEqual({
      requestId: 'video_abc',
      keyId: 'key_1',
      model: 'sora-2',
      provider: 'openai',
      upstreamModel: 'sora-2-2025',
      endpoint: 'videos',
      status: 200,
      inputUncached: 0,
      cacheRead: 0,
      cacheWrite: 0,
      output: 0,
      reasoning: 0,
      images: 0,
      videoSeconds: 8,
      usageEstimated: false,
      costNanoUsd: 800_000_000n,
      createdAt: endedAt,
      durationMs: 90_000,
    });
  });

  it('records a failed, overdue or deleted job at 0 with the status a client would have had', () => {
    expect(meterVideoJob(job, endedAt, { status: 'failed' })).toMatchObject({ status: 502, videoSeconds: 0, costNanoUsd: 0n });
    expect(meterVideoJob(job, endedAt, { status: 'deadline' })).toMatchObject({ status: 504, videoSeconds: 0, costNanoUsd: 0n });
    expect(meterVideoJob(job, endedAt, { status: 'cancelled' })).toMatchObject({ status: 499, videoSeconds: 0, costNanoUsd: 0n });
  });

  it('rounds a sub-nano charge half up and never records a negative duration', () => {
    const cheap = { ...job, pricePerSecondPicoUsd: 1_500n };
    expect(meterVideoJob(cheap, new Date(job.createdAt.getTime() - 5), { status: 'completed', seconds: 3 })).toMatchObject({ costNanoUsd: 5n, durationMs: 0 });
  });
});
