import type { ImageTierPrice, PriceEntry } from './model-price.js';

/**
 * A tier's size that fits every size: the price of models that bill one price per image whatever
 * its dimensions (the FLUX models take any size within their limits).
 */
export const anyImageSize = 'any';

/** A tier the request or upstream named; `auto` names none. */
export function concreteTier(value: string | undefined): string | undefined {
  return value === undefined || value === 'auto' ? undefined : value;
}

function sizeFits(tier: Pick<ImageTierPrice, 'size'>, size: string | undefined): boolean {
  return size === undefined || tier.size === size || tier.size === anyImageSize;
}

/**
 * The tier to bill for what is known of an image call. A tier nobody named, or one the price list
 * lacks, is billed at the dearest priced tier that fits what is known — never as "unknown, $0".
 * The charge after a call and the worst case reserved before it both go by this, so a reservation
 * is never below the charge of the same request. Only one tier fitting is no assumption.
 */
export function imageTierToBill(price: PriceEntry | undefined, quality: string | undefined, size: string | undefined): { tier: Pick<ImageTierPrice, 'quality' | 'size'>; assumed: boolean } {
  const tiers = price?.image?.tiers ?? [];
  const exact = tiers.find((tier) => tier.quality === quality && tier.size === size);
  if (exact !== undefined || tiers.length === 0) return { tier: { quality: quality ?? 'auto', size: size ?? 'auto' }, assumed: exact === undefined && tiers.length > 0 };
  const fitting = tiers.filter((tier) => (quality === undefined || tier.quality === quality) && sizeFits(tier, size));
  const pool = fitting.length > 0 ? fitting : tiers;
  const dearest = pool.reduce((best, tier) => (tier.perImage > best.perImage ? tier : best));
  return { tier: dearest, assumed: fitting.length !== 1 };
}
