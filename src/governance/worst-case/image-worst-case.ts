import { costNanoUsd } from '../../catalog/pricing/cost.js';
import { concreteTier, imageTierToBill } from '../../catalog/pricing/image-tier-to-bill.js';
import type { PriceEntry } from '../../catalog/pricing/model-price.js';
import { tokensWorstNanoUsd } from './text-worst-case.js';

/** Output tokens reserved per image where a model also bills image tokens: above the largest image's. */
const worstTokensPerImage = 8_192;

/**
 * The most an image call can cost before it is made (docs/api.md, "Budgets"): `n` images at the
 * dearest tier that fits what was asked (`auto` fits every tier), plus `n` of the largest images
 * the request allows where the price is per megapixel, plus, where the price has token
 * rates, the prompt's bytes as input tokens and `worstTokensPerImage` per image as output.
 */
export function worstImageCostNanoUsd(price: PriceEntry | undefined, asked: { quality?: string; size?: string; worstPixels?: bigint }, n: number, promptBytes: number): bigint {
  const tiers = price?.image?.tiers ?? [];
  let cost = 0n;
  if (tiers.length > 0) {
    const { tier } = imageTierToBill(price, concreteTier(asked.quality), concreteTier(asked.size));
    cost += costNanoUsd(price, { images: [{ ...tier, count: n }] });
  }
  // Priced per megapixel: every image at the most pixels the request allows.
  if (price?.image?.perMegapixel !== undefined && asked.worstPixels !== undefined) cost += costNanoUsd(price, { imagePixels: asked.worstPixels * BigInt(n) });
  const tokens = price?.image?.tokens;
  if (tokens !== undefined) cost += tokensWorstNanoUsd(tokens, promptBytes, worstTokensPerImage * n);
  return cost;
}
