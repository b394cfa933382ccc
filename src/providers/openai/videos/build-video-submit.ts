import type { VideoGenerationRequest } from '../../../ir/video-generation.js';
import { encodeMultipartForm } from '../shared/multipart-form.js';
import type { UpstreamCall, UpstreamTarget } from '../../provider-adapter.js';
import { openAIJobHeaders } from './openai-job-headers.js';

/**
 * `POST /videos`: JSON when there is no first frame or it is a URL; a multipart form when the
 * frame is bytes, as the Videos API takes uploads. `seconds` is a string there, as OpenAI defines it.
 */
export function buildVideoSubmit(request: VideoGenerationRequest, target: UpstreamTarget): UpstreamCall {
  const url = `${target.baseUrl}/videos`;
  const fields = { model: target.model, prompt: request.prompt, seconds: String(request.seconds), size: request.size };
  const reference = request.inputReference;
  if (reference !== undefined && 'bytes' in reference) {
    const form = encodeMultipartForm([
      ...Object.entries(fields).map(([name, value]) => ({ name, value })),
      { name: 'input_reference', file: { bytes: reference.bytes, filename: reference.filename, mediaType: reference.mediaType } },
    ]);
    return { method: 'POST', url, headers: { ...openAIJobHeaders(target), 'content-type': form.contentType }, body: form.body };
  }
  const body = reference === undefined ? fields : { ...fields, input_reference: { image_url: reference.url } };
  return { method: 'POST', url, headers: { ...openAIJobHeaders(target), 'content-type': 'application/json' }, body: JSON.stringify(body) };
}

/** `POST /videos/{id}/remix`: a new job from a finished one. */
export function buildVideoRemix(upstreamJobId: string, prompt: string, target: UpstreamTarget): UpstreamCall {
  return {
    method: 'POST',
    url: `${target.baseUrl}/videos/${encodeURIComponent(upstreamJobId)}/remix`,
    headers: { ...openAIJobHeaders(target), 'content-type': 'application/json' },
    body: JSON.stringify({ prompt }),
  };
}
