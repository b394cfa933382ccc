import { formatNanoUsd } from '../../catalog/pricing/decimal-usd.js';
import type { VideoJobRecord } from './video-job-store.js';

const unixSeconds = (date: Date | null): number | null => (date === null ? null : Math.floor(date.getTime() / 1000));

/**
 * A job as clients see it (docs/api.md, "Videos"; the OpenAI Videos shape): `seconds` is a string as
 * OpenAI sends it, and a completed job carries what it cost.
 */
export function videoJobObject(job: VideoJobRecord): Record<string, unknown> {
  const object: Record<string, unknown> = {
    id: job.id,
    object: 'video',
    model: job.model,
    // A cancelled job is deleted, so never shown; were it read mid-deletion it has failed.
    status: job.status === 'cancelled' ? 'failed' : job.status,
    progress: job.progress,
    created_at: unixSeconds(job.createdAt),
    completed_at: unixSeconds(job.completedAt),
    expires_at: unixSeconds(job.expiresAt),
    seconds: String(job.status === 'completed' && job.deliveredSeconds !== null ? job.deliveredSeconds : job.seconds),
    size: job.size,
    prompt: job.prompt,
    error: job.errorCode === null ? null : { code: job.errorCode, message: job.errorMessage ?? job.errorCode },
    remixed_from_video_id: job.remixedFromVideoId,
  };
  if (job.status === 'completed') {
    object['usage'] = { seconds: job.deliveredSeconds ?? 0, cost_usd: formatNanoUsd(job.costNanoUsd ?? 0n) };
  }
  return object;
}
