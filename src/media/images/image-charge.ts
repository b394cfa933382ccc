import { tokensWorstNanoUsd } from '../../governance/worst-case/text-worst-case.js';
import { costNanoUsd } from '../../catalog/pricing/cost.js';
import type { ImageTierPrice, PriceEntry } from '../../catalog/pricing/model-price.js';
import type { ImageGenerationResult } from '../../ir/image-generation.js';

export interface ImageCharge {
  /** The tier billed: what the upstream reports it made, else what was asked. */
  readonly quality: string;
  readonly size: string;
  readonly count: number;
  readonly costNanoUsd: bigint;
  /** True when neither the upstream nor the request said which tier was made and the dearest one that fits was billed. */
  readonly tierAssumed: boolean;
}

function concrete(value: string | undefined): string | undefined {
  return value === undefined || value === 'auto' ? undefined : value;
}

/**
 * The tier to bill. The upstream's report wins (it says what `auto` became); then the request. A
 * tier nobody named, or one the price list lacks, is billed at the dearest priced tier that fits
 * what is known — never as "unknown, $0".
 */
function tierToBill(price: PriceEntry | undefined, quality: string | undefined, size: string | undefined): { tier: Pick<ImageTierPrice, 'quality' | 'size'>; assumed: boolean } {
  const tiers = price?.image?.tiers ?? [];
  const exact = tiers.find((tier) => tier.quality === quality && tier.size === size);
  if (exact !== undefined || tiers.length === 0) return { tier: { quality: quality ?? 'auto', size: size ?? 'auto' }, assumed: exact === undefined && tiers.length > 0 };
  const fitting = tiers.filter((tier) => (quality === undefined || tier.quality === quality) && (size === undefined || tier.size === size));
  const pool = fitting.length > 0 ? fitting : tiers;
  const dearest = pool.reduce((best, tier) => (tier.perImage > best.perImage ? tier : best));
  return { tier: dearest, assumed: true };
}

/** What a call that returned images costs at the price in force: per image at its tier, plus tokens where the price has them. */
export function imageCharge(price: PriceEntry | undefined, result: ImageGenerationResult, asked: { quality?: string; size?: string }): ImageCharge {
  const count = result.images.length;
  const { tier, assumed } = tierToBill(price, concrete(result.quality) ?? concrete(asked.quality), concrete(result.size) ?? concrete(asked.size));
  const cost = costNanoUsd(price, { ...(result.usage === undefined ? {} : { tokens: result.usage }), images: price?.image === undefined ? [] : [{ ...tier, count }] });
  return { quality: tier.quality, size: tier.size, count, costNanoUsd: cost, tierAssumed: assumed };
}

/** Output tokens reserved per image where a model also bills image tokens: above the largest image's. */
const worstTokensPerImage = 8_192;

/**
 * The most a call can cost before it is made (docs/api.md, "Budgets"): `n` images at the dearest tier
 * that fits what was asked (`auto` fits every tier), plus, where the price has token rates, the
 * prompt's bytes as input tokens and `worstTokensPerImage` per image as output.
 */
export function worstImageCostNanoUsd(price: PriceEntry | undefined, asked: { quality?: string; size?: string }, n: number, promptBytes: number): bigint {
  const tiers = price?.image?.tiers ?? [];
  let cost = 0n;
  if (tiers.length > 0) {
    const { tier } = tierToBill(price, concrete(asked.quality), concrete(asked.size));
    cost += costNanoUsd(price, { images: [{ ...tier, count: n }] });
  }
  const tokens = price?.image?.tokens;
  if (tokens !== undefined) cost += tokensWorstNanoUsd(tokens, promptBytes, worstTokensPerImage * n);
  return cost;
}
