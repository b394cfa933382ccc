import type { VideoJobFailure } from '../../ir/video-generation.js';
import { meterVideoJob } from '../../metering/meter-video-job.js';
import type { VideoJobContentVariant, VideoJobEnding, VideoJobRecord } from './video-job-store.js';

/** A completed job, charged the price fixed at submit for the seconds delivered. */
export function completedEnding(
  job: VideoJobRecord,
  at: Date,
  seconds: number,
  contents: Readonly<Partial<Record<VideoJobContentVariant, string>>>,
  expiresAt: Date,
): VideoJobEnding {
  const ledgerEntry = meterVideoJob(job, at, { status: 'completed', seconds });
  return { status: 'completed', at, expiresAt, deliveredSeconds: seconds, costNanoUsd: ledgerEntry.costNanoUsd, contents, ledgerEntry };
}

/** A job that failed (or ran past its deadline): free, with its one entry at 0. */
export function failedEnding(job: VideoJobRecord, at: Date, failure: VideoJobFailure): VideoJobEnding {
  const ledgerEntry = meterVideoJob(job, at, { status: failure.code === 'deadline_exceeded' ? 'deadline' : 'failed' });
  return { status: 'failed', at, errorCode: failure.code, errorMessage: failure.message, costNanoUsd: 0n, ledgerEntry };
}

/** A job deleted before it finished: free, with its one entry at 0. */
export function cancelledEnding(job: VideoJobRecord, at: Date): VideoJobEnding {
  const ledgerEntry = meterVideoJob(job, at, { status: 'cancelled' });
  return { status: 'cancelled', at, errorCode: 'cancelled', errorMessage: 'The job was deleted before it finished.', costNanoUsd: 0n, ledgerEntry };
}
