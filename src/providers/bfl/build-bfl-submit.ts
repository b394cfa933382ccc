import { GatewayError } from '../../errors/gateway-error.js';
import type { ImageGenerationRequest } from '../../ir/index.js';
import type { UpstreamCall, UpstreamTarget } from '../provider-adapter.js';
import { bflHeaders, bflSubmitUrl } from './bfl-endpoint.js';
import { aspectRatioOf, bflModelShape } from './bfl-models.js';

/** The field of the n-th input image (0-based): `input_image`, then `input_image_2`, `input_image_3` … */
function inputImageField(index: number): string {
  return index === 0 ? 'input_image' : `input_image_${index + 1}`;
}

/**
 * One FLUX task: `POST /v1/{model}` with the prompt, the picture's shape in the model's terms
 * (`width`/`height`, or `aspect_ratio`), the output format, and for an edit the client's images as
 * base64 (`input_image`, `input_image_2` …). BFL makes one image a task; the gateway submits one
 * task per image asked. A size left out (or `auto`) is the model's default: for an edit, the
 * input's own aspect.
 */
export function buildBflSubmit(request: ImageGenerationRequest, target: UpstreamTarget): UpstreamCall {
  const shape = bflModelShape(target.model);
  if (request.mask !== undefined) {
    throw new GatewayError('unsupported_parameter', `The model '${target.model}' on BFL edits from a prompt and takes no mask.`, { param: 'mask' });
  }
  const inputs = request.inputImages ?? [];
  if (inputs.length > shape.maxInputImages) {
    throw new GatewayError('invalid_field', `The model '${target.model}' on BFL takes at most ${shape.maxInputImages} input images; ${inputs.length} were sent.`, { param: 'image' });
  }
  const body: Record<string, unknown> = { prompt: request.prompt };
  const size = request.size === undefined || request.size === 'auto' ? undefined : request.size;
  if (size !== undefined && shape.sizing === 'dimensions') {
    const [width, height] = size.split('x').map(Number);
    body.width = width;
    body.height = height;
  }
  if (size !== undefined && shape.sizing === 'aspect-ratio') body.aspect_ratio = aspectRatioOf(target.model, size);
  inputs.forEach((image, index) => {
    body[inputImageField(index)] = Buffer.from(image.bytes).toString('base64');
  });
  // BFL answers JPEG unless told; the Images API's default is PNG.
  body.output_format = request.outputFormat === 'jpeg' ? 'jpeg' : 'png';
  return { method: 'POST', url: bflSubmitUrl(target), headers: bflHeaders(target), body: JSON.stringify(body) };
}
