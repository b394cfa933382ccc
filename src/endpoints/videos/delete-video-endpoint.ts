import { cancelledEnding } from '../../media/videos/video-job-ending.js';
import { jobRoute } from '../../media/videos/video-routes.js';
import { callVideoUpstream } from '../../media/videos/video-upstream-call.js';
import type { VideoJobRecord } from '../../media/videos/video-job-store.js';
import { errorResponse } from '../../http/error-response.js';
import type { GatewayContext } from '../../http/exchange.js';
import type { GatewayServices } from '../gateway-services.js';
import { jsonAnswer, videoCaller, visibleVideoJob } from './video-caller.js';

/** Stops the upstream job where the upstream can; a failure is logged, as the job is free either way. */
async function cancelUpstream(job: VideoJobRecord, services: GatewayServices, requestId: string): Promise<void> {
  const { catalog, routing } = services.catalog.current();
  const route = jobRoute(catalog.find(job.model), job.provider, job.upstreamModel);
  if (route?.videos.buildCancel === undefined || job.upstreamJobId === null) return;
  await callVideoUpstream(route.adapter, route.route.target, route.videos.buildCancel(job.upstreamJobId, route.route.target), routing.timeout_ms).catch((error: unknown) => {
    services.logger.warn({ requestId, jobId: job.id, err: error }, 'cancelling the upstream video job failed');
  });
}

/**
 * `DELETE /v1/videos/{id}`: before completion the job is cancelled (upstream too, where it can
 * be) and charged nothing; after, its content is removed. Either way the job is gone.
 */
export async function handleDeleteVideo(context: GatewayContext, services: GatewayServices): Promise<Response> {
  const requestId = context.get('requestId');
  try {
    const key = await videoCaller(context, services);
    const job = await visibleVideoJob(services, context.req.param('id') ?? '', key);
    const store = services.storage.videoJobs;
    // Ending it first, conditionally, settles a race with a worker completing it: one of them wins.
    if (job.status === 'queued' || job.status === 'in_progress') {
      if (await store.finish(job.id, cancelledEnding(job, new Date()))) await cancelUpstream(job, services, requestId);
    }
    const deleted = (await store.markDeleted(job.id, new Date())) ?? job;
    await Promise.all(Object.values(deleted.contents).map((contentKey) => services.contentStore.delete(contentKey)));
    return jsonAnswer({ id: job.id, object: 'video.deleted', deleted: true }, requestId);
  } catch (error) {
    return errorResponse(error, requestId);
  }
}
