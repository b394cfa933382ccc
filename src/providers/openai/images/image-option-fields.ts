import type { ImageGenerationRequest } from '../../../ir/index.js';

/**
 * The generation options of an Images API call under their wire names, only those that are set:
 * an upstream rejects a field it does not know (dall-e-2 refuses `quality`), so none is sent empty.
 * Partial images are asked for as a stream (`stream`, `partial_images`).
 */
export function imageOptionFields(request: ImageGenerationRequest): Record<string, string | number | boolean> {
  const streaming = request.partialImages > 0;
  const fields: Record<string, string | number | boolean | undefined> = {
    n: request.n,
    size: request.size,
    quality: request.quality,
    output_format: request.outputFormat,
    output_compression: request.outputCompression,
    background: request.background,
    moderation: request.moderation,
    style: request.style,
    user: request.user,
    stream: streaming ? true : undefined,
    partial_images: streaming ? request.partialImages : undefined,
  };
  const defined: Record<string, string | number | boolean> = {};
  for (const [name, value] of Object.entries(fields)) {
    if (value !== undefined) defined[name] = value;
  }
  return defined;
}
