import { videoSecondsCostNanoUsd } from '../catalog/pricing/cost.js';
import type { PicoUsd } from '../catalog/pricing/decimal-usd.js';
import type { LedgerEntry } from './ledger-entry.js';

/** What the ledger takes from a video job: who asked, what served it, and the price fixed at submit. */
export interface MeteredVideoJob {
  readonly id: string;
  readonly keyId: string | null;
  readonly model: string;
  readonly provider: string;
  readonly upstreamModel: string;
  readonly createdAt: Date;
  readonly pricePerSecondPicoUsd: PicoUsd;
}

/** How a job ended, as far as its charge goes: only a completed one delivered seconds. */
export type VideoJobOutcome = { readonly status: 'completed'; readonly seconds: number } | { readonly status: 'failed' | 'deadline' | 'cancelled' };

/** The status the ledger records for how a job ended (the HTTP status such a failure has elsewhere). */
const ledgerStatus = { completed: 200, failed: 502, deadline: 504, cancelled: 499 } as const;

/**
 * The one ledger entry of a video job, under the job's id, when it ends: a completed job is
 * charged the seconds delivered at the price fixed at submit; one that failed, ran past its
 * deadline or was deleted first is on the record at 0. The job store appends it in the same
 * transaction that ends the job, so a job is charged once, whichever instance ends it.
 */
export function meterVideoJob(job: MeteredVideoJob, at: Date, outcome: VideoJobOutcome): LedgerEntry {
  const seconds = outcome.status === 'completed' ? outcome.seconds : 0;
  return {
    requestId: job.id,
    keyId: job.keyId,
    model: job.model,
    provider: job.provider,
    upstreamModel: job.upstreamModel,
    endpoint: 'videos',
    status: ledgerStatus[outcome.status],
    inputUncached: 0,
    cacheRead: 0,
    cacheWrite: 0,
    output: 0,
    reasoning: 0,
    images: 0,
    videoSeconds: seconds,
    usageEstimated: false,
    costNanoUsd: videoSecondsCostNanoUsd(job.pricePerSecondPicoUsd, seconds),
    createdAt: at,
    durationMs: Math.max(0, at.getTime() - job.createdAt.getTime()),
  };
}
