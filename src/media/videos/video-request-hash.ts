import { createHash } from 'node:crypto';
import type { VideoGenerationRequest } from '../../ir/video-generation.js';

/**
 * A digest of a submit as the gateway understood it — the model, the variant and length chosen,
 * the prompt, the first frame's bytes or URL, and the job remixed — rather than of its bytes: the
 * `openai` SDK sends a multipart body whose boundary changes on every retry, and `seconds: "4"`
 * and `seconds: 4` ask for the same job. Kept with the job, so any instance can compare a retry.
 */
export function videoRequestHash(model: string, request: VideoGenerationRequest, remixedFromVideoId: string | undefined): string {
  const reference = request.inputReference;
  const canonical = JSON.stringify([
    model,
    request.mode,
    request.resolution,
    request.aspectRatio,
    request.size,
    request.seconds,
    request.prompt,
    reference === undefined ? null : 'url' in reference ? { url: reference.url } : { bytes: createHash('sha256').update(reference.bytes).digest('hex'), type: reference.mediaType },
    remixedFromVideoId ?? null,
  ]);
  return `sha256:${createHash('sha256').update(canonical).digest('hex')}`;
}
