import { GatewayError } from '../../errors/gateway-error.js';
import type { UpstreamVideoState } from '../../ir/video-generation.js';
import { isRecord } from '../../json/json-value.js';
import type { UpstreamTarget, VideoGeneration } from '../provider-adapter.js';
import { veoVideoGeneration } from '../gemini/videos/veo-video-generation.js';
import { vertexModelUrl } from './vertex-endpoint.js';

function veoModelUrl(target: UpstreamTarget): string {
  return vertexModelUrl(target, 'google', target.model.replace(/^models\//, ''));
}

function vertexHeaders(target: UpstreamTarget): Record<string, string> {
  return { 'content-type': 'application/json', ...target.headers };
}

const cloudStorageOrigin = 'https://storage.googleapis.com';

/**
 * A `gs://bucket/object` URI as Cloud Storage's JSON API serves the object's bytes; the download
 * carries the same OAuth2 token as the calls to Vertex (the scope covers Cloud Storage).
 */
export function cloudStorageMediaUrl(gcsUri: string): string {
  const match = /^gs:\/\/([^/]+)\/(.+)$/.exec(gcsUri);
  if (match === null) throw new GatewayError('upstream_invalid_response', 'Vertex AI named the video at a Cloud Storage URI it could not be read from.');
  const [, bucket, object] = match as unknown as [string, string, string];
  return `${cloudStorageOrigin}/storage/v1/b/${encodeURIComponent(bucket)}/o/${encodeURIComponent(object)}?alt=media`;
}

/**
 * Vertex's finished operation lists its videos under `response.videos`: each inline
 * (`bytesBase64Encoded`, when the request named no bucket) or at a `gcsUri`. Anything else
 * (pending, an error, every sample filtered) reads as the Gemini API's operation does.
 */
function decodeVertexOperation(body: unknown): UpstreamVideoState | undefined {
  if (!isRecord(body) || body.done !== true || !isRecord(body.response) || !Array.isArray(body.response.videos)) return undefined;
  const [first] = body.response.videos as unknown[];
  if (!isRecord(first)) return undefined;
  const mimeType = typeof first.mimeType === 'string' && /^[\w.+-]+\/[\w.+-]+$/.test(first.mimeType) ? first.mimeType : 'video/mp4';
  if (typeof first.bytesBase64Encoded === 'string' && first.bytesBase64Encoded !== '') {
    return { status: 'completed', downloads: { video: `data:${mimeType};base64,${first.bytesBase64Encoded}` } };
  }
  if (typeof first.gcsUri === 'string') return { status: 'completed', downloads: { video: cloudStorageMediaUrl(first.gcsUri) } };
  return undefined;
}

/**
 * Veo on Vertex AI: the Gemini API's submit body at the model's `:predictLongRunning`, polled by
 * POSTing the operation's name to `:fetchPredictOperation` (Vertex has no GET on it).
 */
export const vertexVeoGeneration: VideoGeneration = {
  buildSubmit(request, target) {
    const built = veoVideoGeneration.buildSubmit(request, target);
    return { method: 'POST', url: `${veoModelUrl(target)}:predictLongRunning`, headers: vertexHeaders(target), ...(built.body === undefined ? {} : { body: built.body }) };
  },
  decodeSubmit: (body, target) => veoVideoGeneration.decodeSubmit(body, target),
  buildPoll: (operation, target) => ({
    method: 'POST',
    url: `${veoModelUrl(target)}:fetchPredictOperation`,
    headers: vertexHeaders(target),
    body: JSON.stringify({ operationName: operation }),
  }),
  decodePoll: (body, headers, target) => decodeVertexOperation(body) ?? veoVideoGeneration.decodePoll(body, headers, target),
  // The bucket the operator named is read with the same token, its scope covering Cloud Storage.
  credentialedContentHost: (url) => url.origin === cloudStorageOrigin,
};
