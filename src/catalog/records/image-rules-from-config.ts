import type { ImageRulesConfig } from '../../config/model-record-schema.js';
import type { ImageRules } from './image-model-record.js';

/** What an image model accepts when neither its built-in record nor the config says otherwise. */
const fallback = {
  qualities: ['auto'],
  maxN: 1,
  responseFormats: ['b64_json', 'url'],
  defaultResponseFormat: 'b64_json',
  outputFormats: ['png'],
  backgrounds: [],
  styles: [],
  streaming: false,
  edits: false,
  maxPromptLength: 32_000,
  maxInputImages: 16,
  maxInputImageBytes: 50 * 1024 * 1024,
} as const satisfies Omit<ImageRules, 'sizes' | 'dimensions'>;

/**
 * The rules of an image model: the config's fields over the built-in record's, over the
 * fallbacks. Undefined when neither names sizes or dimension limits, which every model needs.
 */
export function imageRulesFromConfig(builtin: ImageRulesConfig | undefined, configured: ImageRulesConfig | undefined): ImageRules | undefined {
  const merged: ImageRulesConfig = { ...builtin, ...configured };
  // A config that gives dimension limits replaces a built-in size list, and the other way round.
  const sizes = configured?.dimensions !== undefined && configured.sizes === undefined ? undefined : merged.sizes;
  const dimensions = configured?.sizes !== undefined && configured.dimensions === undefined ? undefined : merged.dimensions;
  if (sizes === undefined && dimensions === undefined) return undefined;
  const responseFormats = merged.response_formats ?? fallback.responseFormats;
  return {
    ...(sizes === undefined ? {} : { sizes }),
    ...(dimensions === undefined
      ? {}
      : {
          dimensions: {
            minWidth: dimensions.min_width,
            maxWidth: dimensions.max_width,
            minHeight: dimensions.min_height,
            maxHeight: dimensions.max_height,
            ...(dimensions.multiple_of === undefined ? {} : { multipleOf: dimensions.multiple_of }),
            ...(dimensions.max_pixels === undefined ? {} : { maxPixels: dimensions.max_pixels }),
            ...(dimensions.min_aspect_ratio === undefined ? {} : { minAspectRatio: dimensions.min_aspect_ratio }),
            ...(dimensions.max_aspect_ratio === undefined ? {} : { maxAspectRatio: dimensions.max_aspect_ratio }),
          },
        }),
    qualities: merged.qualities ?? fallback.qualities,
    maxN: merged.max_n ?? fallback.maxN,
    responseFormats,
    defaultResponseFormat: merged.default_response_format ?? (responseFormats.includes('b64_json') ? 'b64_json' : 'url'),
    outputFormats: merged.output_formats ?? fallback.outputFormats,
    backgrounds: merged.backgrounds ?? fallback.backgrounds,
    styles: merged.styles ?? fallback.styles,
    streaming: merged.streaming ?? fallback.streaming,
    edits: merged.edits ?? fallback.edits,
    maxPromptLength: merged.max_prompt_length ?? fallback.maxPromptLength,
    maxInputImages: merged.max_input_images ?? fallback.maxInputImages,
    maxInputImageBytes: merged.max_input_image_bytes ?? fallback.maxInputImageBytes,
  };
}
