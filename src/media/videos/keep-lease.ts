import type { VideoWorkContext } from './video-work-context.js';

/**
 * Renews a job's lease while a long step runs (a download of a large video), so no other worker
 * takes the job meanwhile; returns the function that stops renewing.
 */
export function keepLease(jobId: string, context: VideoWorkContext): () => void {
  const leaseMs = context.videos.lease_seconds * 1000;
  const timer = setInterval(() => {
    const until = new Date(context.now().getTime() + leaseMs);
    context.store.updateLeased(jobId, context.owner, { leaseExpiresAt: until }).catch((error: unknown) => {
      context.logger.warn({ jobId, err: error }, 'video job lease renewal failed');
    });
  }, leaseMs / 3);
  timer.unref();
  return () => clearInterval(timer);
}
