import { GatewayError } from '../../../errors/gateway-error.js';
import type { GeneratedImage, ImageGenerationRequest, ImageGenerationResult } from '../../../ir/index.js';
import { asArray, asString, isRecord } from '../../../json/json-value.js';
import { contentFilterError } from './content-filter-error.js';
import { stabilityAspectRatioForSize, stabilityDefaultAspectRatio } from './stability-aspect-ratios.js';

/**
 * A Stability answer `{"images": [base64], "seeds": […], "finish_reasons": [null | reason]}` → the
 * neutral result. A picture whose finish reason is not null was not made: "Filter reason: …" is the
 * client's content-policy refusal when no picture is left, "Inference error" the upstream's failure.
 */
export function decodeStabilityResponse(body: unknown, request: ImageGenerationRequest): ImageGenerationResult {
  if (!isRecord(body)) throw new GatewayError('upstream_invalid_response', 'The Stability model returned a response the gateway cannot read.');
  const reasons = asArray(body['finish_reasons']);
  const images: GeneratedImage[] = [];
  const refusals: string[] = [];
  asArray(body['images']).forEach((item, index) => {
    const reason = asString(reasons[index]);
    const base64 = asString(item);
    if (reason !== undefined) refusals.push(reason);
    else if (base64 !== undefined && base64 !== '') images.push({ base64 });
  });
  // A filtered answer may hold no images member at all, only its reasons.
  for (const reason of reasons.slice(asArray(body['images']).length)) if (typeof reason === 'string') refusals.push(reason);
  if (images.length === 0) {
    const filtered = refusals.find((reason) => /^filter reason/i.test(reason));
    if (filtered !== undefined) throw contentFilterError(filtered);
    const reason = refusals[0] ?? 'no image and no reason';
    throw new GatewayError('upstream_error', `The Stability model made no image: ${reason}.`);
  }
  const size = (stabilityAspectRatioForSize(request.size) ?? stabilityDefaultAspectRatio).size;
  return { images, size, quality: 'standard', outputFormat: request.outputFormat ?? 'png' };
}
