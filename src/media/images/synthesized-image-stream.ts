import { loadSharp } from './load-sharp.js';
import type { ChunkStream } from '../../call/commit-stream.js';
import type { ImageGenerationRequest, ImageGenerationResult } from '../../ir/image-generation.js';
import { totalInputTokens, totalOutputTokens, type Usage } from '../../ir/usage.js';
import { imageEventFrame } from './image-stream-frames.js';
import { partialImagePreview } from './partial-image-preview.js';

const textEncoder = new TextEncoder();

function usageFields(usage: Usage | undefined, first: boolean): Record<string, unknown> {
  if (usage === undefined) return {};
  // The whole call's usage rides on the first image, so the events add up to the call's figures.
  const input = first ? totalInputTokens(usage) : 0;
  const output = first ? totalOutputTokens(usage) : 0;
  return { usage: { input_tokens: input, output_tokens: output, total_tokens: input + output } };
}

/**
 * The Images API stream for an answer generated whole (an upstream that does not stream, or a
 * stream asked without partial images): per image, `partialImages` previews made from it, then
 * its `completed` event, with what the upstream reported, else what was asked, else what the
 * picture itself shows (its size).
 */
export async function* synthesizedImageStream(
  result: ImageGenerationResult,
  request: ImageGenerationRequest,
  editing: boolean,
  /**
   * Called as each image's first event (a preview, or its `completed` event) is handed on: an
   * image the client was shown is billed, even when it left before the final picture.
   */
  onShown: () => void,
): ChunkStream {
  const sharp = await loadSharp();
  const prefix = editing ? 'image_edit' : 'image_generation';
  const createdAt = Math.floor(Date.now() / 1000);
  const outputFormat = result.outputFormat ?? request.outputFormat ?? 'png';
  for (const [index, image] of result.images.entries()) {
    const final = Buffer.from(image.base64, 'base64');
    const metadata = await sharp(final).metadata();
    const settings = {
      created_at: createdAt,
      size: result.size ?? `${metadata.width ?? 0}x${metadata.height ?? 0}`,
      quality: result.quality ?? request.quality ?? 'auto',
      output_format: outputFormat,
      background: result.background ?? request.background ?? 'auto',
    };
    onShown();
    for (let partial = 0; partial < request.partialImages; partial += 1) {
      const preview = await partialImagePreview(final, partial, request.partialImages, outputFormat);
      const payload = { b64_json: preview.toString('base64'), ...settings, partial_image_index: partial };
      yield textEncoder.encode(imageEventFrame(`${prefix}.partial_image`, payload));
    }
    const payload = { b64_json: image.base64, ...settings, ...usageFields(result.usage, index === 0) };
    yield textEncoder.encode(imageEventFrame(`${prefix}.completed`, payload));
  }
}
