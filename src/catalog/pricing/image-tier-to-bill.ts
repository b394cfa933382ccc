import type { ImageTierPrice, PriceEntry } from './model-price.js';

/** A tier the request or upstream named; `auto` names none. */
export function concreteTier(value: string | undefined): string | undefined {
  return value === undefined || value === 'auto' ? undefined : value;
}

/**
 * The tier to bill for what is known of an image call. A tier nobody named, or one the price list
 * lacks, is billed at the dearest priced tier that fits what is known — never as "unknown, $0".
 * The charge after a call and the worst case reserved before it both go by this, so a reservation
 * is never below the charge of the same request.
 */
export function imageTierToBill(price: PriceEntry | undefined, quality: string | undefined, size: string | undefined): { tier: Pick<ImageTierPrice, 'quality' | 'size'>; assumed: boolean } {
  const tiers = price?.image?.tiers ?? [];
  const exact = tiers.find((tier) => tier.quality === quality && tier.size === size);
  if (exact !== undefined || tiers.length === 0) return { tier: { quality: quality ?? 'auto', size: size ?? 'auto' }, assumed: exact === undefined && tiers.length > 0 };
  const fitting = tiers.filter((tier) => (quality === undefined || tier.quality === quality) && (size === undefined || tier.size === size));
  const pool = fitting.length > 0 ? fitting : tiers;
  const dearest = pool.reduce((best, tier) => (tier.perImage > best.perImage ? tier : best));
  return { tier: dearest, assumed: true };
}
