import { z } from 'zod';
import { formatNanoUsd } from '../../catalog/pricing/decimal-usd.js';
import { GatewayError } from '../../errors/gateway-error.js';
import type { VideoJobRecord } from '../../media/videos/video-job-store.js';
import { errorResponse } from '../../http/error-response.js';
import type { GatewayContext } from '../../http/exchange.js';
import type { GatewayServices } from '../gateway-services.js';
import { jsonAnswer } from '../videos/video-caller.js';
import { videoContentAnswer } from '../videos/video-content-endpoint.js';
import { adminCaller } from './admin-caller.js';
import { adminVideoContentUrls, assertSignedAdminVideoUrl } from './admin-video-urls.js';
import { adminQuery, queryInteger } from './admin-query.js';

const videoJobId = /^video_[A-Za-z0-9_-]{1,200}$/;

const adminVideosQuerySchema = z.object({
  limit: queryInteger('limit', 1, 500).default(50),
  before: z.string().regex(videoJobId, 'before must be a video job id (video_…)').optional(),
  status: z.enum(['queued', 'in_progress', 'completed', 'failed', 'cancelled']).optional(),
});

const isoOrNull = (date: Date | null): string | null => date?.toISOString() ?? null;

/** A job as administrators see it: whose it is and its internal state, `cancelled` and deleted ones included. */
function adminVideoObject(job: VideoJobRecord, services: GatewayServices, now: Date) {
  return {
    id: job.id,
    object: 'admin.video',
    key_id: job.keyId,
    status: job.status,
    progress: job.progress,
    model: job.model,
    provider: job.provider,
    mode: job.mode,
    seconds: job.seconds,
    delivered_seconds: job.deliveredSeconds,
    size: job.size,
    cost_usd: job.costNanoUsd === null ? null : formatNanoUsd(job.costNanoUsd),
    error: job.errorCode === null ? null : { code: job.errorCode, message: job.errorMessage ?? job.errorCode },
    created_at: job.createdAt.toISOString(),
    completed_at: isoOrNull(job.completedAt),
    expires_at: isoOrNull(job.expiresAt),
    deleted_at: isoOrNull(job.deletedAt),
    content_urls: adminVideoContentUrls(job, services.contentUrlSigner, services.config.content.url_ttl_seconds, now),
  };
}

/** `GET /admin/videos?limit=&before=&status=`: every key's jobs, newest first; `next_before` pages on. */
export async function handleAdminVideos(context: GatewayContext, services: GatewayServices): Promise<Response> {
  const requestId = context.get('requestId');
  try {
    await adminCaller(context, services);
    const query = adminQuery(context, adminVideosQuerySchema);
    const now = new Date();
    const page = await services.storage.videoJobs.listAll({
      limit: query.limit,
      ...(query.before === undefined ? {} : { before: query.before }),
      ...(query.status === undefined ? {} : { status: query.status }),
    });
    return jsonAnswer(
      { object: 'list', data: page.jobs.map((job) => adminVideoObject(job, services, now)), has_more: page.hasMore, next_before: page.hasMore ? (page.jobs.at(-1)?.id ?? null) : null },
      requestId,
    );
  } catch (error) {
    return errorResponse(error, requestId);
  }
}

/**
 * `GET /admin/videos/{id}/content`: any key's job content, as its owner downloads it (variant,
 * Range, ETag), with an admin key or by a signed URL from `GET /admin/videos` (`content_urls`).
 */
export async function handleAdminVideoContent(context: GatewayContext, services: GatewayServices): Promise<Response> {
  const requestId = context.get('requestId');
  try {
    const id = context.req.param('id') ?? '';
    const query = context.req.query();
    if (query.signature === undefined) await adminCaller(context, services);
    else assertSignedAdminVideoUrl(services.contentUrlSigner, id, query, new Date());
    const job = videoJobId.test(id) ? await services.storage.videoJobs.get(id) : undefined;
    if (job === undefined) throw new GatewayError('not_found', `No video job found with id '${id}'.`, { param: 'video_id' });
    return await videoContentAnswer(context, services, job);
  } catch (error) {
    return errorResponse(error, requestId);
  }
}
