import { jobPhase, type SimVideoJob } from './sim-video-job.js';

/** How long OpenAI keeps a finished video: an hour, as its recorded answers show. */
const keptSeconds = 3600;

export function openAiVideoId(encoded: string): string {
  return `video_${encoded}`;
}

/** The job in the OpenAI Videos shape, as it stands at `now`. */
export function openAiVideoObject(id: string, job: SimVideoJob, now: number): Record<string, unknown> {
  const phase = jobPhase(job, now);
  const completedAt = phase.status === 'completed' ? Math.floor((job.createdAt + job.renderMs) / 1000) : null;
  return {
    id,
    object: 'video',
    model: job.model,
    status: phase.status,
    progress: phase.progress,
    created_at: Math.floor(job.createdAt / 1000),
    completed_at: completedAt,
    expires_at: completedAt === null ? null : completedAt + keptSeconds,
    seconds: String(job.seconds),
    size: job.size,
    prompt: job.prompt,
    remixed_from_video_id: job.remixOf ?? null,
    error: phase.status === 'failed' ? { code: job.outcome === 'filter' ? 'moderation_blocked' : 'video_generation_failed', message: 'The simulator was asked to fail this video.' } : null,
  };
}
