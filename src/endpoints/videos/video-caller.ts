import { GatewayError } from '../../errors/gateway-error.js';
import { assertEndpointAllowed } from '../../keys/key-scope.js';
import type { ApiKeyRecord } from '../../keys/api-key.js';
import type { VideoJobRecord } from '../../media/videos/video-job-store.js';
import type { GatewayContext } from '../../http/exchange.js';
import type { GatewayServices } from '../gateway-services.js';
import { nodeRequestHeaders } from '../../http/request-headers.js';

/** The caller of a video endpoint: authenticated and allowed the `videos` family. */
export async function videoCaller(context: GatewayContext, services: GatewayServices): Promise<ApiKeyRecord | undefined> {
  const key = await services.authenticator.authenticate(nodeRequestHeaders(context.env.incoming));
  assertEndpointAllowed(key, 'videos');
  return key;
}

/**
 * A job the caller may see: only the key that submitted it. Another key's job answers exactly as
 * an unknown one does, so ids cannot be probed.
 */
export async function visibleVideoJob(services: GatewayServices, id: string, key: ApiKeyRecord | undefined): Promise<VideoJobRecord> {
  const job = /^video_[A-Za-z0-9_-]{1,200}$/.test(id) ? await services.storage.videoJobs.get(id) : undefined;
  if (job === undefined || job.keyId !== (key?.id ?? null)) {
    throw new GatewayError('not_found', `No video job found with id '${id}'.`, { param: 'video_id' });
  }
  return job;
}

/** A JSON answer with the request id, as every video endpoint gives. */
export function jsonAnswer(body: unknown, requestId: string, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', 'x-request-id': requestId } });
}
