import { GatewayError } from '../../../errors/gateway-error.js';
import type { ImageGenerationRequest, ImageGenerationResult } from '../../../ir/index.js';
import { asArray, asString, isRecord, readString } from '../../../json/json-value.js';
import { contentFilterError } from './content-filter-error.js';
import { novaCanvasQuality, novaCanvasSize } from './nova-canvas-request.js';

/**
 * Nova Canvas's answer `{"images": [base64 PNG, …], "error"?: "…"}` → the neutral result. When its
 * filters withheld some pictures the answer holds the others and says so in `error`: those are
 * delivered (and only they are charged); when it withheld all, the client gets the content-policy
 * refusal. Nova writes PNG at the size and tier asked.
 */
export function decodeNovaCanvasResponse(body: unknown, request: ImageGenerationRequest): ImageGenerationResult {
  if (!isRecord(body)) throw new GatewayError('upstream_invalid_response', 'Nova Canvas returned a response the gateway cannot read.');
  const images = asArray(body['images']).flatMap((item) => {
    const base64 = asString(item);
    return base64 === undefined || base64 === '' ? [] : [{ base64 }];
  });
  const error = readString(body, 'error');
  if (images.length === 0) {
    if (error !== undefined && error !== '') throw contentFilterError(error);
    throw new GatewayError('upstream_invalid_response', 'Nova Canvas answered without any image.');
  }
  const { width, height } = novaCanvasSize(request.size);
  return { images, size: `${width}x${height}`, quality: novaCanvasQuality(request.quality), outputFormat: 'png' };
}
