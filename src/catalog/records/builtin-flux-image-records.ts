import type { ImageRulesConfig, PriceEntryConfig } from '../../config/model-record-schema.js';
import type { BuiltinImageRecord } from './builtin-image-records.js';

/**
 * Black Forest Labs' FLUX models by BFL's own ids, with their dimension rules and BFL's list prices
 * (1 credit = $0.01). Sources: docs.bfl.ai's model references and pricing page; the FLUX.2 limits
 * (multiples of 16, up to 2048 a side and 4 megapixels) from Replicate's and resellers' pages.
 */

const common: ImageRulesConfig = {
  qualities: ['standard', 'auto'],
  // BFL makes one image a task: `n` images are `n` tasks, at most four a request.
  max_n: 4,
  response_formats: ['b64_json', 'url'],
  default_response_format: 'b64_json',
  output_formats: ['png', 'jpeg'],
  backgrounds: [],
  styles: [],
  streaming: false,
  max_prompt_length: 10_000,
};

/** FLUX1.1 [pro] and FLUX.1 [dev]: any size from 256 to 1440 a side in multiples of 32. */
const fluxOneRules: ImageRulesConfig = {
  ...common,
  dimensions: { min_width: 256, max_width: 1440, min_height: 256, max_height: 1440, multiple_of: 32 },
  edits: false,
};

/** Ultra takes an aspect ratio from 21:9 to 9:21 at about four megapixels: its sizes name them. */
const ultraRules: ImageRulesConfig = {
  ...common,
  sizes: ['2048x2048', '2368x1792', '1792x2368', '2496x1664', '1664x2496', '2752x1536', '1536x2752', '2272x1824', '1824x2272', '3136x1344', '1344x3136', 'auto'],
  edits: false,
};

/** Kontext generates and edits at about one megapixel, by aspect ratio; an edit keeps the input's when no size is asked. */
const kontextRules: ImageRulesConfig = {
  ...common,
  sizes: ['1024x1024', '1184x880', '880x1184', '1248x832', '832x1248', '1392x752', '752x1392', '1568x672', '672x1568', 'auto'],
  edits: true,
  max_input_images: 1,
  max_input_image_bytes: 20 * 1024 * 1024,
};

/** FLUX.2: any size from 64 to 2048 a side in multiples of 16, up to four megapixels; up to eight reference images. */
const fluxTwoRules: ImageRulesConfig = {
  ...common,
  dimensions: { min_width: 64, max_width: 2048, min_height: 64, max_height: 2048, multiple_of: 16, max_pixels: 2048 * 2048 },
  edits: true,
  max_input_images: 8,
  max_input_image_bytes: 20 * 1024 * 1024,
};

const perImage = (usd: string): PriceEntryConfig => ({ effective_from: '2025-10-01', per_image: { 'standard/any': usd } });

/**
 * FLUX.2 bills its first megapixel at one rate and each further one at another: a price per image
 * (the first megapixel's rate less a further one's) plus a price per megapixel comes to exactly that
 * for every image of a megapixel or more.
 */
const firstAndFurtherMegapixel = (perImageUsd: string | undefined, perMegapixelUsd: string): PriceEntryConfig => ({
  effective_from: '2025-11-25',
  ...(perImageUsd === undefined ? {} : { per_image: { 'standard/any': perImageUsd } }),
  per_megapixel: perMegapixelUsd,
});

export const builtinFluxImageRecords: Readonly<Record<string, BuiltinImageRecord>> = {
  'flux-pro-1.1': { ownedBy: 'black-forest-labs', image: fluxOneRules, price: perImage('0.04') },
  'flux-dev': { ownedBy: 'black-forest-labs', image: fluxOneRules, price: perImage('0.025') },
  'flux-pro-1.1-ultra': { ownedBy: 'black-forest-labs', image: ultraRules, price: perImage('0.06') },
  'flux-kontext-pro': { ownedBy: 'black-forest-labs', image: kontextRules, price: perImage('0.04') },
  'flux-kontext-max': { ownedBy: 'black-forest-labs', image: kontextRules, price: perImage('0.08') },
  // [pro] 3 credits the first megapixel, 1.5 each further; [max] 7 and 3; [flex] 5 and 5.
  'flux-2-pro': { ownedBy: 'black-forest-labs', image: fluxTwoRules, price: firstAndFurtherMegapixel('0.015', '0.015') },
  'flux-2-max': { ownedBy: 'black-forest-labs', image: fluxTwoRules, price: firstAndFurtherMegapixel('0.04', '0.03') },
  'flux-2-flex': { ownedBy: 'black-forest-labs', image: fluxTwoRules, price: firstAndFurtherMegapixel(undefined, '0.05') },
};
