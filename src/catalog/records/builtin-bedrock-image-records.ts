import type { ImageRulesConfig } from '../../config/model-record-schema.js';
import type { BuiltinImageRecord } from './builtin-image-records.js';

/**
 * Amazon Nova Canvas takes any size within its limits (Amazon Nova user guide, "Request and
 * response structure for image generation"): sides a multiple of 16 from 320 to 4096 pixels, at
 * most 4,194,304 pixels, a ratio from 1:4 to 4:1, and up to five pictures a call. It writes PNG.
 */
const novaCanvasRules: ImageRulesConfig = {
  dimensions: { min_width: 320, max_width: 4096, min_height: 320, max_height: 4096, multiple_of: 16, max_pixels: 4_194_304, min_aspect_ratio: 0.25, max_aspect_ratio: 4 },
  qualities: ['standard', 'premium', 'auto'],
  max_n: 5,
  response_formats: ['b64_json', 'url'],
  default_response_format: 'b64_json',
  output_formats: ['png'],
  backgrounds: [],
  styles: [],
  // Bedrock answers whole; the gateway plays the answer out as the Images API's events.
  streaming: true,
  edits: false,
  max_prompt_length: 1024,
};

/**
 * Stability AI's models on Bedrock take an aspect ratio, so the sizes offered are the ones each
 * ratio produces (`auto` is their default, 1:1); one picture a call, PNG, JPEG or WebP.
 */
const stabilityRules: ImageRulesConfig = {
  sizes: ['1024x1024', '1344x768', '768x1344', '1536x640', '640x1536', '1216x832', '832x1216', '1088x896', '896x1088', 'auto'],
  qualities: ['standard', 'auto'],
  max_n: 1,
  response_formats: ['b64_json', 'url'],
  default_response_format: 'b64_json',
  output_formats: ['png', 'jpeg', 'webp'],
  backgrounds: [],
  styles: [],
  // Bedrock answers whole; the gateway plays the answer out as the Images API's events.
  streaming: true,
  edits: false,
  max_prompt_length: 10_000,
};

/**
 * Bedrock's image models the gateway knows by their Bedrock ids. They carry no price: the pricing
 * dataset has no per-image rows for them, so an operator gives `per_image` in the model's config.
 */
export const builtinBedrockImageRecords: Readonly<Record<string, BuiltinImageRecord>> = {
  'amazon.nova-canvas-v1:0': { ownedBy: 'amazon', image: novaCanvasRules },
  'stability.sd3-5-large-v1:0': { ownedBy: 'stability', image: stabilityRules },
  'stability.stable-image-ultra-v1:1': { ownedBy: 'stability', image: stabilityRules },
  'stability.stable-image-ultra-v1:0': { ownedBy: 'stability', image: stabilityRules },
  'stability.stable-image-core-v1:1': { ownedBy: 'stability', image: stabilityRules },
  'stability.stable-image-core-v1:0': { ownedBy: 'stability', image: stabilityRules },
};
