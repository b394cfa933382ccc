import { GatewayError, toGatewayError } from '../../errors/gateway-error.js';
import type { UpstreamVideoState, VideoContentVariant } from '../../ir/video-generation.js';
import type { VideoJobContentVariant, VideoJobRecord } from './video-job-store.js';
import { deliveredSeconds } from './delivered-seconds.js';
import { downloadVideoContent } from './download-video-content.js';
import { keepLease } from './keep-lease.js';
import { completedEnding, failedEnding } from './video-job-ending.js';
import type { VideoRoute } from './video-routes.js';
import type { VideoWorkContext } from './video-work-context.js';

type Completed = Extract<UpstreamVideoState, { status: 'completed' }>;

const variants: readonly VideoContentVariant[] = ['video', 'thumbnail', 'spritesheet'];

/** Where a job's content lives in the store. */
export function videoContentKey(jobId: string, variant: VideoJobContentVariant): string {
  return `videos/${jobId}/${variant}`;
}

/**
 * A job the upstream has finished: its content is copied into the store (the video must arrive;
 * a thumbnail or spritesheet that fails is left out), then the job ends completed and is charged
 * for the seconds delivered, in one step with its ledger entry. A failed copy is retried at the
 * next poll, but a video refused for what it is (its type, its size, its address) fails the job,
 * free; content of a job deleted meanwhile is removed again, and nothing is charged.
 */
export async function finishCompletedJob(job: VideoJobRecord, route: VideoRoute, state: Completed, context: VideoWorkContext, retryLater: () => Promise<void>): Promise<void> {
  const expiresAt = new Date(context.now().getTime() + context.contentTtlSeconds * 1000);
  const headers = route.adapter.upstreamHeaders(route.route.target, {});
  const contents: Partial<Record<VideoJobContentVariant, string>> = {};
  let measured: number | undefined;
  const stopRenewing = keepLease(job.id, context);
  try {
    for (const variant of variants) {
      const url = state.downloads[variant];
      if (url === undefined) continue;
      const key = videoContentKey(job.id, variant);
      try {
        const target = {
          url,
          variant,
          headers,
          adapter: route.adapter,
          upstream: route.route.target,
          timeoutMs: context.timeoutMs,
          maxBytes: context.videos.download_max_bytes,
          privateAddresses: context.videos.download_private_addresses,
        };
        const downloaded = await downloadVideoContent(target, context.contentStore, key, expiresAt);
        contents[variant] = key;
        if (variant === 'video') measured = downloaded.durationSeconds;
      } catch (error) {
        if (variant === 'video') throw error;
        context.logger.warn({ jobId: job.id, variant, code: toGatewayError(error).code }, 'video job content left out: its download failed');
      }
    }
  } catch (error) {
    stopRenewing();
    if (error instanceof GatewayError && error.code === 'upstream_content_refused') {
      // The same link answers the same way at every poll: the job ends here, free, with what was kept removed.
      await Promise.all(Object.values(contents).map((kept) => context.contentStore.delete(kept)));
      const ended = await context.store.finish(job.id, failedEnding(job, context.now(), { code: error.code, message: error.message }), context.owner);
      if (ended) context.logger.warn({ jobId: job.id, model: job.model, reason: error.message }, 'video job failed: its content was refused');
      return;
    }
    context.logger.warn({ jobId: job.id, code: toGatewayError(error).code, err: error }, 'downloading the finished video failed; will retry');
    await retryLater();
    return;
  }
  stopRenewing();
  const seconds = deliveredSeconds(job.seconds, state.seconds, measured);
  const ended = await context.store.finish(job.id, completedEnding(job, context.now(), seconds, contents, expiresAt), context.owner);
  if (ended) {
    context.logger.info({ jobId: job.id, model: job.model, seconds }, 'video job completed');
    return;
  }
  // Not ours to end: deleted meanwhile (its content goes), or finished by a worker that took the
  // job over after this one's lease lapsed (the content under these keys is then that worker's).
  const now = await context.store.get(job.id);
  if (now?.status === 'completed') return;
  await Promise.all(Object.values(contents).map((key) => context.contentStore.delete(key)));
}
