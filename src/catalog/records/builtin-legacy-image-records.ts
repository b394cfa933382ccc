import type { ImageRulesConfig } from '../../config/model-record-schema.js';

/**
 * Retired image models that clients still name. Each keeps its own rules (what it accepted is
 * what a request naming it is checked against) and says what its qualities meant, so the request
 * can be served by a current model at the nearest quality that model sells.
 */
export interface BuiltinLegacyImageRecord {
  readonly image: ImageRulesConfig;
  /** Its quality names on the current models' ladder (low, medium, high). */
  readonly qualityMeaning: Readonly<Record<string, string>>;
  /** Parameters it took that current models have no use for. */
  readonly dropped: readonly string[];
}

export const builtinLegacyImageRecords: Readonly<Record<string, BuiltinLegacyImageRecord>> = {
  'dall-e-3': {
    image: {
      sizes: ['1024x1024', '1792x1024', '1024x1792'],
      qualities: ['standard', 'hd'],
      max_n: 1,
      response_formats: ['url', 'b64_json'],
      default_response_format: 'url',
      output_formats: ['png'],
      backgrounds: [],
      styles: ['vivid', 'natural'],
      streaming: false,
      edits: false,
      max_prompt_length: 4000,
    },
    qualityMeaning: { standard: 'medium', hd: 'high' },
    dropped: ['style'],
  },
  'dall-e-2': {
    image: {
      sizes: ['256x256', '512x512', '1024x1024'],
      qualities: ['standard'],
      max_n: 10,
      response_formats: ['url', 'b64_json'],
      default_response_format: 'url',
      output_formats: ['png'],
      backgrounds: [],
      styles: [],
      streaming: false,
      edits: true,
      max_prompt_length: 1000,
      // dall-e-2 edited one square PNG under 4 MB.
      max_input_images: 1,
      max_input_image_bytes: 4 * 1024 * 1024,
    },
    qualityMeaning: { standard: 'low' },
    dropped: [],
  },
};
