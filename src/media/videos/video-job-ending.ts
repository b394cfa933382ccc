import { videoSecondsCostNanoUsd } from '../../catalog/pricing/cost.js';
import type { VideoJobFailure } from '../../ir/video-generation.js';
import type { VideoJobContentVariant, VideoJobEnding, VideoJobRecord } from './video-job-store.js';
import type { LedgerEntry } from '../../metering/ledger-entry.js';

/** The status the ledger records for how a job ended (the HTTP status such a failure has elsewhere). */
const ledgerStatus = { completed: 200, failed: 502, deadline: 504, cancelled: 499 } as const;

function ledgerEntry(job: VideoJobRecord, at: Date, status: number, seconds: number, costNanoUsd: bigint): LedgerEntry {
  return {
    requestId: job.id,
    keyId: job.keyId,
    model: job.model,
    provider: job.provider,
    upstreamModel: job.upstreamModel,
    endpoint: 'videos',
    status,
    inputUncached: 0,
    cacheRead: 0,
    cacheWrite: 0,
    output: 0,
    reasoning: 0,
    images: 0,
    videoSeconds: seconds,
    usageEstimated: false,
    costNanoUsd,
    createdAt: at,
    durationMs: Math.max(0, at.getTime() - job.createdAt.getTime()),
  };
}

/** A completed job, charged the price fixed at submit for the seconds delivered. */
export function completedEnding(
  job: VideoJobRecord,
  at: Date,
  seconds: number,
  contents: Readonly<Partial<Record<VideoJobContentVariant, string>>>,
  expiresAt: Date,
): VideoJobEnding {
  const costNanoUsd = videoSecondsCostNanoUsd(job.pricePerSecondPicoUsd, seconds);
  return {
    status: 'completed',
    at,
    expiresAt,
    deliveredSeconds: seconds,
    costNanoUsd,
    contents,
    ledgerEntry: ledgerEntry(job, at, ledgerStatus.completed, seconds, costNanoUsd),
  };
}

/** A job that failed (or ran past its deadline): free, with its one entry at 0. */
export function failedEnding(job: VideoJobRecord, at: Date, failure: VideoJobFailure): VideoJobEnding {
  const status = failure.code === 'deadline_exceeded' ? ledgerStatus.deadline : ledgerStatus.failed;
  return { status: 'failed', at, errorCode: failure.code, errorMessage: failure.message, costNanoUsd: 0n, ledgerEntry: ledgerEntry(job, at, status, 0, 0n) };
}

/** A job deleted before it finished: free, with its one entry at 0. */
export function cancelledEnding(job: VideoJobRecord, at: Date): VideoJobEnding {
  return {
    status: 'cancelled',
    at,
    errorCode: 'cancelled',
    errorMessage: 'The job was deleted before it finished.',
    costNanoUsd: 0n,
    ledgerEntry: ledgerEntry(job, at, ledgerStatus.cancelled, 0, 0n),
  };
}
