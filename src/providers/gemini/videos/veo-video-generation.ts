import { GatewayError } from '../../../errors/gateway-error.js';
import type { SubmittedVideoJob, VideoGenerationRequest } from '../../../ir/video-generation.js';
import type { UpstreamCall, UpstreamTarget, VideoGeneration } from '../../provider-adapter.js';
import { geminiHeaders, geminiModelUrl, geminiRoot } from '../gemini-endpoint.js';
import { decodeVeoOperation } from './decode-veo-operation.js';

/**
 * `:predictLongRunning` on the Gemini API: the prompt (and a first frame, inline: the Gemini API
 * takes no image URL, only Vertex's Cloud Storage ones) with aspect ratio, resolution and length.
 */
function buildSubmit(request: VideoGenerationRequest, target: UpstreamTarget): UpstreamCall {
  const reference = request.inputReference;
  if (reference !== undefined && !('bytes' in reference)) {
    throw new GatewayError('invalid_field', "This model's upstream (Veo on the Gemini API) takes input_reference as an image file or a data: URL, not a link.", { param: 'input_reference' });
  }
  const image = reference === undefined ? {} : { image: { bytesBase64Encoded: Buffer.from(reference.bytes).toString('base64'), mimeType: reference.mediaType } };
  const body = {
    instances: [{ prompt: request.prompt, ...image }],
    parameters: { aspectRatio: request.aspectRatio, resolution: request.resolution, durationSeconds: request.seconds },
  };
  return { method: 'POST', url: `${geminiModelUrl(target)}:predictLongRunning`, headers: geminiHeaders(target), body: JSON.stringify(body) };
}

function decodeSubmit(body: unknown): SubmittedVideoJob {
  const name = (body as { name?: unknown } | null)?.name;
  if (typeof name !== 'string' || name === '') throw new GatewayError('upstream_invalid_response', 'The upstream accepted the video without naming its operation.');
  return { upstreamJobId: name };
}

/** A GET carries no body: the key and the operator's headers only. */
function pollHeaders(target: UpstreamTarget): Record<string, string> {
  const { 'content-type': _json, ...headers } = geminiHeaders(target);
  return headers;
}

/** Veo on the Gemini API: long-running operations, polled by name until done. No remix, no cancel. */
export const veoVideoGeneration: VideoGeneration = {
  buildSubmit,
  decodeSubmit: (body) => decodeSubmit(body),
  buildPoll: (operation, target) => ({ method: 'GET', url: `${geminiRoot(target)}/v1beta/${operation.replace(/^\/+/, '')}`, headers: pollHeaders(target) }),
  decodePoll: (body) => decodeVeoOperation(body),
};
