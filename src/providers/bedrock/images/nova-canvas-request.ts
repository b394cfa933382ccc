import { GatewayError } from '../../../errors/gateway-error.js';
import type { ImageGenerationRequest } from '../../../ir/index.js';
import type { UpstreamMediaRequest, UpstreamTarget } from '../../provider-adapter.js';
import { bedrockModelUrl } from '../anthropic-on-bedrock.js';

/** What Nova Canvas draws when no size is asked (its own default). */
export const novaCanvasDefaultSize = { width: 1024, height: 1024 } as const;

/** `WxH` → its sides; `auto` or no size → Nova Canvas's default. */
export function novaCanvasSize(size: string | undefined): { width: number; height: number } {
  const match = size === undefined ? null : /^(\d+)x(\d+)$/.exec(size);
  return match === null ? novaCanvasDefaultSize : { width: Number(match[1]), height: Number(match[2]) };
}

/** Nova Canvas has two tiers; `auto` is its default, `standard`. */
export function novaCanvasQuality(quality: string | undefined): 'standard' | 'premium' {
  return quality === 'premium' ? 'premium' : 'standard';
}

/**
 * Nova Canvas's text-to-image InvokeModel body (Amazon Nova user guide, "Request and response
 * structure for image generation"): the prompt as `textToImageParams.text`, every picture of the
 * call from one `imageGenerationConfig`. The image record has checked the size (sides a multiple
 * of 16 within 320–4096, at most 4.19 MP, ratio 1:4 to 4:1) and `n` (at most 5) already.
 */
export function buildNovaCanvasRequest(request: ImageGenerationRequest, target: UpstreamTarget): UpstreamMediaRequest {
  if (request.inputImages !== undefined && request.inputImages.length > 0) {
    throw new GatewayError('unsupported_parameter', `The model ${target.model} is served for generation only on this gateway.`, { param: 'image' });
  }
  const { width, height } = novaCanvasSize(request.size);
  const body = {
    taskType: 'TEXT_IMAGE',
    textToImageParams: { text: request.prompt },
    imageGenerationConfig: { numberOfImages: request.n, width, height, quality: novaCanvasQuality(request.quality) },
  };
  return {
    url: bedrockModelUrl(target.baseUrl, target.model, 'invoke'),
    headers: { 'content-type': 'application/json', accept: 'application/json', ...target.headers },
    body: JSON.stringify(body),
  };
}
