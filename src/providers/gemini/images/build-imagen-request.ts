import { GatewayError } from '../../../errors/gateway-error.js';
import type { ImageGenerationRequest } from '../../../ir/index.js';
import type { UpstreamMediaRequest, UpstreamTarget } from '../../provider-adapter.js';
import { geminiHeaders, geminiPredictUrl } from '../gemini-endpoint.js';
import { aspectRatioForSize, imagenSizes } from './aspect-ratio-sizes.js';
import { mimeTypeForOutputFormat } from './image-output-format.js';

/**
 * Imagen `:predict`: one instance with the prompt, the options as `parameters`. The reason an
 * image was filtered is asked for (`includeRaiReason`), since Imagen otherwise drops such
 * images without a word.
 */
export function buildImagenRequest(request: ImageGenerationRequest, target: UpstreamTarget): UpstreamMediaRequest {
  if (request.inputImages !== undefined && request.inputImages.length > 0) {
    throw new GatewayError('unsupported_parameter', `The model ${target.model} generates images but does not edit them.`, { param: 'image' });
  }
  const aspectRatio = aspectRatioForSize(request.size, imagenSizes)?.aspectRatio;
  const outputOptions = imagenOutputOptions(request);
  const parameters = {
    sampleCount: request.n,
    ...(aspectRatio === undefined ? {} : { aspectRatio }),
    includeRaiReason: true,
    ...(outputOptions === undefined ? {} : { outputOptions }),
  };
  return {
    url: geminiPredictUrl(target),
    headers: geminiHeaders(target),
    body: JSON.stringify({ instances: [{ prompt: request.prompt }], parameters }),
  };
}

/** Imagen writes PNG or JPEG; compression applies to JPEG only. */
function imagenOutputOptions(request: ImageGenerationRequest): { mimeType: string; compressionQuality?: number } | undefined {
  if (request.outputFormat !== 'png' && request.outputFormat !== 'jpeg') return undefined;
  const mimeType = mimeTypeForOutputFormat(request.outputFormat);
  if (request.outputFormat === 'jpeg' && request.outputCompression !== undefined) {
    return { mimeType, compressionQuality: request.outputCompression };
  }
  return { mimeType };
}
