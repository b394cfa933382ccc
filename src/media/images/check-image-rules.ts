import type { ImageDimensionLimits, ImageRules } from '../../catalog/records/image-model-record.js';
import { GatewayError } from '../../errors/gateway-error.js';
import type { ClientImageRequest } from './client-image-request.js';

function refuse(param: string, message: string): never {
  throw new GatewayError('invalid_field', message, { param });
}

function listed(values: readonly (string | number)[]): string {
  return values.map((value) => `'${value}'`).join(', ');
}

/** A value the model lists, or a 400 naming the parameter and every allowed value. */
function checkChoice(param: string, value: string | undefined, allowed: readonly string[], model: string): void {
  if (value === undefined || allowed.includes(value)) return;
  if (allowed.length === 0) refuse(param, `The model '${model}' does not take '${param}'.`);
  refuse(param, `Invalid value for '${param}': '${value}'. The model '${model}' supports ${listed(allowed)}.`);
}

function checkDimensions(size: string, limits: ImageDimensionLimits, model: string): void {
  const match = /^(\d+)x(\d+)$/.exec(size);
  if (match === null) refuse('size', `Invalid value for 'size': '${size}'. Give WIDTHxHEIGHT or 'auto'.`);
  const width = Number(match[1]);
  const height = Number(match[2]);
  const broken: string[] = [];
  if (width < limits.minWidth || width > limits.maxWidth) broken.push(`width ${limits.minWidth}–${limits.maxWidth}`);
  if (height < limits.minHeight || height > limits.maxHeight) broken.push(`height ${limits.minHeight}–${limits.maxHeight}`);
  if (limits.multipleOf !== undefined && (width % limits.multipleOf !== 0 || height % limits.multipleOf !== 0)) broken.push(`sides multiples of ${limits.multipleOf}`);
  if (limits.maxPixels !== undefined && width * height > limits.maxPixels) broken.push(`at most ${limits.maxPixels} pixels`);
  const ratio = width / height;
  if (limits.minAspectRatio !== undefined && ratio < limits.minAspectRatio) broken.push(`aspect ratio at least ${limits.minAspectRatio}`);
  if (limits.maxAspectRatio !== undefined && ratio > limits.maxAspectRatio) broken.push(`aspect ratio at most ${limits.maxAspectRatio}`);
  if (broken.length > 0) refuse('size', `Invalid value for 'size': '${size}'. The model '${model}' needs ${broken.join(', ')}.`);
}

function checkSize(size: string | undefined, rules: ImageRules, model: string): void {
  if (size === undefined) return;
  if (rules.sizes !== undefined) {
    checkChoice('size', size, rules.sizes, model);
    return;
  }
  if (size !== 'auto' && rules.dimensions !== undefined) checkDimensions(size, rules.dimensions, model);
}

function checkInputs(request: ClientImageRequest, rules: ImageRules, model: string, editing: boolean): void {
  if (!editing) return;
  if (!rules.edits) refuse('model', `The model '${model}' does not edit images.`);
  const images = request.images ?? [];
  if (images.length === 0) throw new GatewayError('missing_field', "Missing required parameter: 'image'.", { param: 'image' });
  if (images.length > rules.maxInputImages) refuse('image', `The model '${model}' edits at most ${rules.maxInputImages} image${rules.maxInputImages === 1 ? '' : 's'} at once; ${images.length} were sent.`);
  for (const [param, input] of [...images.map((image) => ['image', image] as const), ...(request.mask === undefined ? [] : [['mask', request.mask] as const])]) {
    if (input.bytes.length > rules.maxInputImageBytes) {
      refuse(param, `The file '${input.filename}' is ${input.bytes.length} bytes; the model '${model}' takes at most ${rules.maxInputImageBytes} bytes per image.`);
    }
  }
}

/**
 * Every rule of the model's record, checked before anything is sent upstream or charged: a
 * violation is a 400 whose `param` names the parameter and whose message lists what is allowed.
 */
export function checkImageRules(request: ClientImageRequest, rules: ImageRules, model: string, editing: boolean): void {
  if (request.prompt.length > rules.maxPromptLength) refuse('prompt', `The prompt is ${request.prompt.length} characters; the model '${model}' takes at most ${rules.maxPromptLength}.`);
  const n = request.n ?? 1;
  if (n > rules.maxN) refuse('n', `Invalid value for 'n': ${n}. The model '${model}' makes ${rules.maxN === 1 ? '1 image' : `1 to ${rules.maxN} images`} per request.`);
  checkSize(request.size, rules, model);
  checkChoice('quality', request.quality, rules.qualities, model);
  checkChoice('response_format', request.response_format, rules.responseFormats, model);
  checkChoice('output_format', request.output_format, rules.outputFormats, model);
  checkChoice('background', request.background, rules.backgrounds, model);
  checkChoice('style', request.style, rules.styles, model);
  if (request.background === 'transparent' && request.output_format === 'jpeg') refuse('background', "A transparent background needs output_format 'png' or 'webp'.");
  if (request.stream === true && !rules.streaming) refuse('stream', `The model '${model}' does not stream images.`);
  if (request.output_compression !== undefined && (request.output_format ?? 'png') === 'png') refuse('output_compression', "output_compression applies to output_format 'jpeg' or 'webp'.");
  checkInputs(request, rules, model, editing);
}
