import { GatewayError } from '../../../errors/gateway-error.js';
import type { GeneratedImage, ImageGenerationResult } from '../../../ir/index.js';
import { asArray, isRecord, readString } from '../../../json/json-value.js';
import { reportedImageFields } from './reported-image-fields.js';

/**
 * An `ImagesResponse` body → the neutral result: `data[].b64_json` (with `revised_prompt`), and
 * the size, quality, format and background the upstream reports having produced.
 */
export function decodeImagesResponse(body: unknown): ImageGenerationResult {
  if (!isRecord(body) || !Array.isArray(body['data'])) {
    throw new GatewayError('upstream_invalid_response', 'The upstream returned an images response without `data`.');
  }
  const items = asArray(body['data']).filter(isRecord);
  const images: GeneratedImage[] = [];
  for (const item of items) {
    const base64 = readString(item, 'b64_json');
    const revisedPrompt = readString(item, 'revised_prompt');
    if (base64 !== undefined && base64 !== '') images.push({ base64, ...(revisedPrompt ? { revisedPrompt } : {}) });
  }
  if (images.length === 0) throw noImagesError(items);
  return { images, ...reportedImageFields(body) };
}

/**
 * Why an answer holds no image. URLs are refused rather than fetched: adapters only translate,
 * and the request asked for base64. An empty list, or items with an empty payload, is how
 * compatible servers report images their moderation withheld (xAI answers 200 with blank
 * slots), so it is the client's 400, never an empty success.
 */
function noImagesError(items: readonly Record<string, unknown>[]): GatewayError {
  if (items.some((item) => readString(item, 'url'))) {
    return new GatewayError(
      'upstream_invalid_response',
      'The upstream answered with image URLs although base64 (`response_format: b64_json`) was requested.',
    );
  }
  return new GatewayError(
    'upstream_client_error',
    'The upstream returned no images: its content filter may have withheld them. Revise the prompt and try again.',
    { status: 400 },
  );
}
