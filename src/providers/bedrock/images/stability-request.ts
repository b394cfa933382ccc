import { GatewayError } from '../../../errors/gateway-error.js';
import type { ImageGenerationRequest } from '../../../ir/index.js';
import type { UpstreamMediaRequest, UpstreamTarget } from '../../provider-adapter.js';
import { bedrockModelUrl } from '../anthropic-on-bedrock.js';
import { stabilityAspectRatioForSize } from './stability-aspect-ratios.js';

/**
 * A Stability model's InvokeModel body on Bedrock (Amazon Bedrock user guide, "Stable Image Ultra
 * request and response"): `prompt`, the `aspect_ratio` the asked size stands for, `output_format`.
 * One picture a call: the image record sells these models with `max_n` 1, so a request for more is
 * refused before it gets here rather than made several calls, one of which might be filtered.
 */
export function buildStabilityRequest(request: ImageGenerationRequest, target: UpstreamTarget): UpstreamMediaRequest {
  if (request.inputImages !== undefined && request.inputImages.length > 0) {
    throw new GatewayError('unsupported_parameter', `The model ${target.model} is served for generation only on this gateway.`, { param: 'image' });
  }
  if (request.n !== 1) throw new GatewayError('invalid_field', `The model ${target.model} makes one image a call; ask for n: 1.`, { param: 'n' });
  const aspectRatio = stabilityAspectRatioForSize(request.size);
  if (aspectRatio === undefined && request.size !== undefined && request.size !== 'auto') {
    throw new GatewayError('invalid_field', `The model ${target.model} has no aspect ratio of the size ${request.size}.`, { param: 'size' });
  }
  const body = {
    prompt: request.prompt,
    ...(aspectRatio === undefined ? {} : { aspect_ratio: aspectRatio.aspectRatio }),
    output_format: request.outputFormat ?? 'png',
  };
  return {
    url: bedrockModelUrl(target.baseUrl, target.model, 'invoke'),
    headers: { 'content-type': 'application/json', accept: 'application/json', ...target.headers },
    body: JSON.stringify(body),
  };
}
