import { costNanoUsd } from '../../catalog/pricing/cost.js';
import { concreteTier, imageTierToBill } from '../../catalog/pricing/image-tier-to-bill.js';
import type { PriceEntry } from '../../catalog/pricing/model-price.js';
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

/**
 * What a call that returned images costs at the price in force: per image at its tier, plus tokens
 * where the price has them. The upstream's report of the tier wins (it says what `auto` became);
 * then the request.
 */
export function imageCharge(price: PriceEntry | undefined, result: ImageGenerationResult, asked: { quality?: string; size?: string }): ImageCharge {
  const count = result.images.length;
  const { tier, assumed } = imageTierToBill(price, concreteTier(result.quality) ?? concreteTier(asked.quality), concreteTier(result.size) ?? concreteTier(asked.size));
  const cost = costNanoUsd(price, { ...(result.usage === undefined ? {} : { tokens: result.usage }), images: price?.image === undefined ? [] : [{ ...tier, count }] });
  return { quality: tier.quality, size: tier.size, count, costNanoUsd: cost, tierAssumed: assumed };
}
