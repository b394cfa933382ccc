import type { ImageRulesConfig, PriceEntryConfig } from '../../config/model-record-schema.js';
import { builtinBedrockImageRecords } from './builtin-bedrock-image-records.js';
import { builtinFluxImageRecords } from './builtin-flux-image-records.js';

/** A well-known image model: its rules and list prices (where the gateway knows them), in the config's own shape. */
export interface BuiltinImageRecord {
  readonly ownedBy: string;
  readonly image: ImageRulesConfig;
  readonly price?: PriceEntryConfig;
}

const gptImageRules: ImageRulesConfig = {
  sizes: ['1024x1024', '1536x1024', '1024x1536', 'auto'],
  qualities: ['low', 'medium', 'high', 'auto'],
  max_n: 10,
  // gpt-image models answer only in base64; the gateway serves `url` itself from its content store.
  response_formats: ['b64_json', 'url'],
  default_response_format: 'b64_json',
  output_formats: ['png', 'jpeg', 'webp'],
  backgrounds: ['transparent', 'opaque', 'auto'],
  styles: [],
  streaming: true,
  edits: true,
};

/** OpenAI's list prices per image: quality × size (portrait and landscape cost the same). */
function gptImageTiers(effectiveFrom: string, prices: Record<'low' | 'medium' | 'high', readonly [string, string]>): PriceEntryConfig {
  const perImage: Record<string, string> = {};
  for (const [quality, [square, oblong]] of Object.entries(prices)) {
    perImage[`${quality}/1024x1024`] = square;
    perImage[`${quality}/1536x1024`] = oblong;
    perImage[`${quality}/1024x1536`] = oblong;
  }
  return { effective_from: effectiveFrom, per_image: perImage };
}

/** Imagen picks sizes by aspect ratio at 1K; one price per image whatever the size. */
const imagenSizes = ['1024x1024', '896x1280', '1280x896', '768x1408', '1408x768'];
function flatTiers(effectiveFrom: string, sizes: readonly string[], usdPerImage: string): PriceEntryConfig {
  return { effective_from: effectiveFrom, per_image: Object.fromEntries(sizes.map((size) => [`standard/${size}`, usdPerImage])) };
}
const imagenRules: ImageRulesConfig = {
  sizes: imagenSizes,
  qualities: ['standard', 'auto'],
  max_n: 4,
  response_formats: ['b64_json', 'url'],
  default_response_format: 'b64_json',
  output_formats: ['png', 'jpeg'],
  backgrounds: [],
  styles: [],
  // The upstream answers whole; the gateway plays the answer out as the Images API's events.
  streaming: true,
  edits: false,
  max_prompt_length: 2000,
};

/** Gemini's image-output models: aspect ratios at about one megapixel, billed per image. */
const geminiImageSizes = ['1024x1024', '832x1248', '1248x832', '864x1184', '1184x864', '896x1152', '1152x896', '768x1344', '1344x768', '1536x672'];
const geminiImageRules: ImageRulesConfig = {
  sizes: [...geminiImageSizes, 'auto'],
  qualities: ['standard', 'auto'],
  max_n: 1,
  response_formats: ['b64_json', 'url'],
  default_response_format: 'b64_json',
  output_formats: ['png'],
  backgrounds: [],
  styles: [],
  // The upstream answers whole; the gateway plays the answer out as the Images API's events.
  streaming: true,
  edits: true,
  max_input_images: 3,
  max_input_image_bytes: 7 * 1024 * 1024,
};

/** Image models the gateway knows by id. Prices are the vendors' list prices on the date shown. */
export const builtinImageRecords: Readonly<Record<string, BuiltinImageRecord>> = {
  'gpt-image-1': {
    ownedBy: 'openai',
    image: gptImageRules,
    price: gptImageTiers('2025-04-23', { low: ['0.011', '0.016'], medium: ['0.042', '0.063'], high: ['0.167', '0.25'] }),
  },
  'gpt-image-1-mini': {
    ownedBy: 'openai',
    image: gptImageRules,
    price: gptImageTiers('2025-10-06', { low: ['0.005', '0.006'], medium: ['0.011', '0.015'], high: ['0.036', '0.052'] }),
  },
  'gpt-image-1.5': {
    ownedBy: 'openai',
    image: gptImageRules,
    price: gptImageTiers('2025-12-16', { low: ['0.009', '0.013'], medium: ['0.034', '0.05'], high: ['0.133', '0.2'] }),
  },
  'imagen-4.0-generate-001': { ownedBy: 'google', image: imagenRules, price: flatTiers('2025-08-14', imagenSizes, '0.04') },
  'imagen-4.0-fast-generate-001': { ownedBy: 'google', image: imagenRules, price: flatTiers('2025-08-14', imagenSizes, '0.02') },
  'imagen-4.0-ultra-generate-001': { ownedBy: 'google', image: { ...imagenRules, max_n: 1 }, price: flatTiers('2025-08-14', imagenSizes, '0.06') },
  'gemini-2.5-flash-image': { ownedBy: 'google', image: geminiImageRules, price: flatTiers('2025-10-02', geminiImageSizes, '0.039') },
  ...builtinBedrockImageRecords,
  ...builtinFluxImageRecords,
};
