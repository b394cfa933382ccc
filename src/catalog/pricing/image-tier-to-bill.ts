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

function pixelsOf(size: string): number | undefined {
  const match = /^(\d+)x(\d+)$/.exec(size);
  return match === null ? undefined : Number(match[1]) * Number(match[2]);
}

function sizeFits(tier: Pick<ImageTierPrice, 'size'>, size: string | undefined): boolean {
  return size === undefined || tier.size === size || tier.size === anyImageSize;
}

/**
 * For a model that takes any size within limits and is priced by size class ("up to 1024x1024"):
 * the tier of the quality whose listed size is the smallest holding at least the asked pixels.
 */
function sizeClassTier(tiers: readonly ImageTierPrice[], quality: string, size: string): ImageTierPrice | undefined {
  const asked = pixelsOf(size);
  if (asked === undefined) return undefined;
  let holding: { tier: ImageTierPrice; pixels: number } | undefined;
  for (const tier of tiers) {
    const pixels = tier.quality === quality ? pixelsOf(tier.size) : undefined;
    if (pixels !== undefined && pixels >= asked && (holding === undefined || pixels < holding.pixels)) holding = { tier, pixels };
  }
  return holding?.tier;
}

/**
 * The tier to bill for what is known of an image call. A size between the listed ones is billed at
 * the smallest listed size of its quality holding as many pixels (a size class). A tier nobody
 * named, or one the price list lacks, is billed at the dearest priced tier that fits what is
 * known — never as "unknown, $0".
 * The charge after a call and the worst case reserved before it both go by this, so a reservation
 * is never below the charge of the same request. Only one tier fitting is no assumption.
 */
export function imageTierToBill(price: PriceEntry | undefined, quality: string | undefined, size: string | undefined): { tier: Pick<ImageTierPrice, 'quality' | 'size'>; assumed: boolean } {
  const tiers = price?.image?.tiers ?? [];
  const exact = tiers.find((tier) => tier.quality === quality && tier.size === size);
  if (exact !== undefined || tiers.length === 0) return { tier: { quality: quality ?? 'auto', size: size ?? 'auto' }, assumed: exact === undefined && tiers.length > 0 };
  const sizeClass = quality === undefined || size === undefined ? undefined : sizeClassTier(tiers, quality, size);
  if (sizeClass !== undefined) return { tier: sizeClass, assumed: false };
  const fitting = tiers.filter((tier) => (quality === undefined || tier.quality === quality) && sizeFits(tier, size));
  const pool = fitting.length > 0 ? fitting : tiers;
  const dearest = pool.reduce((best, tier) => (tier.perImage > best.perImage ? tier : best));
  return { tier: dearest, assumed: fitting.length !== 1 };
}
