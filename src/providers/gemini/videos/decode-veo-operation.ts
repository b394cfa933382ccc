import { GatewayError } from '../../../errors/gateway-error.js';
import type { UpstreamVideoState } from '../../../ir/video-generation.js';

interface VideoResponse {
  readonly generatedSamples?: readonly { readonly video?: { readonly uri?: unknown } }[];
  readonly raiMediaFilteredCount?: unknown;
  readonly raiMediaFilteredReasons?: unknown;
}

interface Operation {
  readonly name?: unknown;
  readonly done?: unknown;
  readonly error?: { readonly code?: unknown; readonly message?: unknown; readonly status?: unknown };
  readonly response?: VideoResponse & { readonly generateVideoResponse?: VideoResponse };
}

function filteredReasons(response: VideoResponse): string | undefined {
  const count = Number(response.raiMediaFilteredCount ?? 0);
  if (!(count > 0)) return undefined;
  const reasons = Array.isArray(response.raiMediaFilteredReasons) ? response.raiMediaFilteredReasons.filter((reason): reason is string => typeof reason === 'string') : [];
  return reasons.length > 0 ? reasons.join(' ') : 'The upstream withheld the video: its safety filter blocked it.';
}

/**
 * A Veo operation's state. Pending has no progress figure. Done with a sample is the video; done
 * with none is a failure, never an empty success: filtered (the Gemini API puts the count under
 * `generateVideoResponse`, Vertex directly under `response`), an error, or no output at all.
 */
export function decodeVeoOperation(body: unknown): UpstreamVideoState {
  const operation = body as Operation | null;
  if (operation === null || typeof operation !== 'object' || typeof operation.name !== 'string') {
    throw new GatewayError('upstream_invalid_response', 'The upstream answered with something that is not a video operation.');
  }
  if (operation.done !== true) return { status: 'in_progress' };
  if (operation.error !== undefined) {
    const message = typeof operation.error.message === 'string' ? operation.error.message : 'The upstream could not make the video.';
    const code = typeof operation.error.status === 'string' ? operation.error.status.toLowerCase() : 'upstream_failed';
    return { status: 'failed', error: { code, message } };
  }
  const response = operation.response?.generateVideoResponse ?? operation.response ?? {};
  const uri = response.generatedSamples?.[0]?.video?.uri;
  if (typeof uri === 'string' && uri !== '') return { status: 'completed', downloads: { video: uri } };
  const filtered = filteredReasons(response) ?? filteredReasons(operation.response ?? {});
  if (filtered !== undefined) return { status: 'failed', error: { code: 'content_filtered', message: filtered } };
  return { status: 'failed', error: { code: 'upstream_no_output', message: 'The upstream finished without a video.' } };
}
