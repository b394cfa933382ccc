import { GatewayError } from '../../../errors/gateway-error.js';
import type { GeneratedImage, ImageGenerationRequest, ImageGenerationResult } from '../../../ir/index.js';
import { asArray, isRecord, readString } from '../../../json/json-value.js';
import { aspectRatioForSize, imagenSizes } from './aspect-ratio-sizes.js';
import { imageFilteredError } from './image-filtered-error.js';
import { outputFormatFromMimeType } from './image-output-format.js';

/** Imagen's default aspect ratio is 1:1. */
const defaultImagenSize = { aspectRatio: '1:1', size: '1024x1024' };

/**
 * Imagen's `predictions[]` → the neutral result. Each prediction holds `bytesBase64Encoded` and
 * `mimeType` (Vertex adds the enhanced `prompt` it drew from), or only `raiFilteredReason` when
 * the image was filtered. The size reported is the one the aspect ratio produces; Imagen has one
 * quality, reported as `standard`.
 */
export function decodeImagenResponse(body: unknown, request: ImageGenerationRequest): ImageGenerationResult {
  if (!isRecord(body)) {
    throw new GatewayError('upstream_invalid_response', 'The Imagen upstream returned a response the gateway cannot read.');
  }
  const predictions = asArray(body['predictions']).filter(isRecord);
  const images: GeneratedImage[] = [];
  const filteredReasons: string[] = [];
  let mimeType: string | undefined;
  for (const prediction of predictions) {
    const base64 = readString(prediction, 'bytesBase64Encoded');
    if (base64) {
      const revisedPrompt = readString(prediction, 'prompt');
      images.push({ base64, ...(revisedPrompt ? { revisedPrompt } : {}) });
      mimeType ??= readString(prediction, 'mimeType');
      continue;
    }
    const reason = readString(prediction, 'raiFilteredReason');
    if (reason) filteredReasons.push(reason);
  }
  if (images.length === 0) {
    // Imagen names no code for a filtered image; IMAGE_SAFETY is Gemini's own name for the same outcome.
    const explanation = filteredReasons.length > 0 ? filteredReasons.join(' ') : 'the safety filter removed every image and gave no reason.';
    throw imageFilteredError('IMAGE_SAFETY', explanation);
  }
  const outputFormat = outputFormatFromMimeType(mimeType);
  return {
    images,
    size: (aspectRatioForSize(request.size, imagenSizes) ?? defaultImagenSize).size,
    quality: 'standard',
    ...(outputFormat === undefined ? {} : { outputFormat }),
  };
}
