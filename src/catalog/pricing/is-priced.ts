import type { OutputModality } from '../model-catalog.js';
import type { PriceEntry } from './model-price.js';

/**
 * Whether a price in force prices calls of its model's modality: token rates for text, a tier, a
 * per-megapixel rate or token rates for images, a variant for video, or the operator's explicit `free: true`. A model
 * that has none costs an unknown amount, never nothing: a key with a budget is refused it.
 */
export function isPriced(modality: OutputModality, price: PriceEntry | undefined): boolean {
  if (price === undefined) return false;
  if (price.free === true) return true;
  if (modality === 'image') return price.image !== undefined && (price.image.tiers.length > 0 || price.image.perMegapixel !== undefined || price.image.tokens !== undefined);
  if (modality === 'video') return price.video !== undefined && price.video.variants.length > 0;
  return price.text !== undefined;
}
