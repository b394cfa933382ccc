import { Readable } from 'node:stream';
import { GatewayError } from '../../errors/gateway-error.js';
import type { ContentReader } from '../../media/content-store/content-store.js';
import type { VideoJobContentVariant, VideoJobRecord } from '../../media/videos/video-job-store.js';
import { servedContentType } from '../../media/videos/video-content-type.js';
import { parseByteRange } from '../../http/byte-range.js';
import { contentSafetyHeaders } from '../../http/content-safety-headers.js';
import { errorResponse } from '../../http/error-response.js';
import type { GatewayContext } from '../../http/exchange.js';
import type { GatewayServices } from '../gateway-services.js';
import { videoCaller, visibleVideoJob } from './video-caller.js';

const variants: readonly VideoJobContentVariant[] = ['video', 'thumbnail', 'spritesheet'];

function variantOf(asked: string | undefined): VideoJobContentVariant {
  const variant = asked ?? 'video';
  if (!(variants as readonly string[]).includes(variant)) {
    throw new GatewayError('invalid_field', `variant must be one of ${variants.join(', ')}; got '${variant}'.`, { param: 'variant' });
  }
  return variant as VideoJobContentVariant;
}

/** The stored key of a job's content, or why there is none (docs/api.md, "Videos"). */
function contentKeyOf(job: VideoJobRecord, variant: VideoJobContentVariant, now: Date): string {
  if (job.status === 'queued' || job.status === 'in_progress') {
    throw new GatewayError('video_not_ready', `The video job '${job.id}' is ${job.status}; its content is ready once it completes.`);
  }
  if (job.status !== 'completed') throw new GatewayError('not_found', `The video job '${job.id}' failed; it has no content.`);
  if (job.expiresAt !== null && job.expiresAt.getTime() <= now.getTime()) {
    throw new GatewayError('video_expired', `The content of the video job '${job.id}' expired at ${job.expiresAt.toISOString()}.`);
  }
  const key = job.contents[variant];
  if (key === undefined) throw new GatewayError('not_found', `The video job '${job.id}' has no ${variant}.`, { param: 'variant' });
  return key;
}

/** Releases content opened but not sent (a HEAD, a 304, a range re-read). */
async function discard(content: ContentReader): Promise<void> {
  await content.body[Symbol.asyncIterator]().return?.();
}

function streamed(content: ContentReader): ReadableStream<Uint8Array> {
  return Readable.toWeb(Readable.from(content.body)) as ReadableStream<Uint8Array>;
}

function matchesTag(ifNoneMatch: string | undefined, etag: string): boolean {
  return ifNoneMatch?.split(',').some((tag) => ['*', etag, `W/${etag}`].includes(tag.trim())) ?? false;
}

/**
 * `GET /v1/videos/{id}/content` (and HEAD): the job's video, thumbnail or spritesheet, streamed
 * from the content store, with byte ranges (players seek with them) and a strong ETag (content
 * under a job never changes).
 */
export async function handleVideoContent(context: GatewayContext, services: GatewayServices): Promise<Response> {
  const requestId = context.get('requestId');
  try {
    const key = await videoCaller(context, services);
    const job = await visibleVideoJob(services, context.req.param('id') ?? '', key);
    return await videoContentAnswer(context, services, job);
  } catch (error) {
    return errorResponse(error, requestId);
  }
}

/**
 * The content of a job the caller may see, as `GET …/content` answers it (the `variant` query,
 * `Range`, `If-None-Match`, HEAD); throws GatewayErrors for the caller to answer. Shared by the
 * client's endpoint and the administrators'.
 */
export async function videoContentAnswer(context: GatewayContext, services: GatewayServices, job: VideoJobRecord): Promise<Response> {
  const requestId = context.get('requestId');
  const variant = variantOf(context.req.query('variant'));
  const contentKey = contentKeyOf(job, variant, new Date());
  const whole = await services.contentStore.get(contentKey);
  if (whole === undefined) throw new GatewayError('video_expired', `The content of the video job '${job.id}' is no longer kept.`);
  const etag = `"${job.id}-${variant}-${whole.size}"`;
  const headers: Record<string, string> = { ...contentSafetyHeaders, etag, 'accept-ranges': 'bytes', 'cache-control': 'private, max-age=3600', 'x-request-id': requestId };
  if (matchesTag(context.req.header('if-none-match'), etag)) {
    await discard(whole);
    return new Response(null, { status: 304, headers });
  }
  headers['content-type'] = servedContentType(variant, whole.contentType);
  const range = parseByteRange(context.req.header('range'), whole.size);
  if (range.kind === 'unsatisfiable') {
    await discard(whole);
    headers['content-range'] = `bytes */${whole.size}`;
    return new Response(null, { status: 416, headers });
  }
  const isHead = context.req.method === 'HEAD';
  if (range.kind === 'whole') {
    headers['content-length'] = String(whole.size);
    if (isHead) await discard(whole);
    return new Response(isHead ? null : streamed(whole), { status: 200, headers });
  }
  await discard(whole);
  headers['content-range'] = `bytes ${range.start}-${range.end}/${whole.size}`;
  headers['content-length'] = String(range.end - range.start + 1);
  if (isHead) return new Response(null, { status: 206, headers });
  const part = await services.contentStore.get(contentKey, { start: range.start, end: range.end });
  if (part === undefined) throw new GatewayError('video_expired', `The content of the video job '${job.id}' is no longer kept.`);
  return new Response(streamed(part), { status: 206, headers });
}
