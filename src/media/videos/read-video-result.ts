import { GatewayError } from '../../errors/gateway-error.js';
import type { UpstreamVideoState } from '../../ir/video-generation.js';
import { decodeUpstreamError } from '../../providers/decode-upstream-error.js';
import type { UpstreamTarget } from '../../providers/provider-adapter.js';
import { sendAuthorized } from '../../upstream/send-authorized.js';
import { flattenHeaders, readBodyText, upstreamTransportError } from '../../upstream/upstream-client.js';
import { AbortScope } from '../../call/abort-scope.js';
import { parseJson } from '../../json/json-value.js';
import type { VideoRoute } from './video-routes.js';

/** A status that says the upstream is unwell or busy, not that the job failed: asked again at the next poll. */
function isPassing(status: number): boolean {
  return status === 429 || status === 408 || status >= 500;
}

/**
 * The outcome of a job its upstream has `finished` (fal's, MiniMax's): one more call, about the
 * job's id or the `resultId` its poll named, whose answer of any status the adapter reads — a 4xx
 * there is the job's own failure (fal's content-policy refusal), kept with the upstream's reason. A
 * 5xx, 429 or a transport failure throws, so the job is polled again. It is made at every poll that
 * finds the job finished, so a link it answers is fresh for each download attempt.
 */
export async function readVideoResult(route: VideoRoute, resultId: string, timeoutMs: number): Promise<Exclude<UpstreamVideoState, { status: 'finished' }>> {
  const result = route.videos.result;
  const target: UpstreamTarget = route.route.target;
  if (result === undefined) throw new GatewayError('upstream_invalid_response', 'The upstream said the job finished but has no way to tell its outcome.');
  const signal = new AbortScope();
  const response = await sendAuthorized(route.adapter, target, { ...result.build(resultId, target), signal, timeoutMs });
  const text = await readBodyText(response).catch((error: unknown) => {
    throw upstreamTransportError(error, signal);
  });
  const headers = flattenHeaders(response.headers);
  if (isPassing(response.statusCode)) throw decodeUpstreamError(route.adapter, target, response.statusCode, text, headers);
  return result.decode(response.statusCode, text === '' ? {} : parseJson(text), target);
}
