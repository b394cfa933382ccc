import { GatewayError } from '../../../errors/gateway-error.js';
import type { ImageGenerationRequest } from '../../../ir/index.js';
import type { GeminiRequestPart } from '../wire/generate-content-request.js';
import type { UpstreamMediaRequest, UpstreamTarget } from '../../provider-adapter.js';
import { geminiGenerateUrl, geminiHeaders } from '../gemini-endpoint.js';
import { aspectRatioForSize, geminiImageSizes } from './aspect-ratio-sizes.js';

/**
 * A Gemini image-output model through `:generateContent`: the prompt, then the pictures to
 * edit as `inlineData` parts, with only images asked for (`responseModalities: ['IMAGE']`) so
 * no text tokens are paid for.
 */
export function buildImageContentRequest(request: ImageGenerationRequest, target: UpstreamTarget): UpstreamMediaRequest {
  if (request.mask !== undefined) {
    // Gemini edits by instruction; it has no mask input.
    throw new GatewayError('unsupported_parameter', `The model ${target.model} edits by instruction and takes no mask.`, { param: 'mask' });
  }
  const parts: GeminiRequestPart[] = [
    { text: request.prompt },
    ...(request.inputImages ?? []).map((image) => ({
      inlineData: { mimeType: image.mediaType, data: Buffer.from(image.bytes).toString('base64') },
    })),
  ];
  const aspectRatio = aspectRatioForSize(request.size, geminiImageSizes)?.aspectRatio;
  const generationConfig = {
    responseModalities: ['IMAGE'],
    ...(request.n > 1 ? { candidateCount: request.n } : {}),
    ...(aspectRatio === undefined ? {} : { imageConfig: { aspectRatio } }),
  };
  return {
    url: geminiGenerateUrl(target, false),
    headers: geminiHeaders(target),
    body: JSON.stringify({ contents: [{ role: 'user', parts }], generationConfig }),
  };
}
