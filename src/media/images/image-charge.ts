import { costNanoUsd } from '../../catalog/pricing/cost.js';
import { megapixelsToPixels, sizePixels } from '../../catalog/pricing/image-pixels.js';
import { concreteTier, imageTierToBill } from '../../catalog/pricing/image-tier-to-bill.js';
import type { PriceEntry } from '../../catalog/pricing/model-price.js';
import type { GeneratedImage, ImageGenerationResult } from '../../ir/image-generation.js';

export interface ImageCharge {
  /** The tier billed: what the upstream reports it made, else what was asked. */
  readonly quality: string;
  readonly size: string;
  readonly count: number;
  readonly costNanoUsd: bigint;
  /** True when neither the upstream nor the request said which tier was made and the dearest one that fits was billed. */
  readonly tierAssumed: boolean;
}

/** What was asked of a call, for billing what the upstream did not report. */
export interface ImageAsked {
  readonly quality?: string;
  readonly size?: string;
  /** The most pixels one image of the request may have (the model's limit): billed when nothing says how large an image was. */
  readonly worstPixels?: bigint;
}

/**
 * What a call that returned images costs at the price in force: per image at its tier, per
 * megapixel of each image where the price has that rate, plus tokens where it has them. The
 * upstream's report wins (the tier `auto` became, the megapixels it billed); then what the gateway
 * measured of the image; then the request.
 */
export function imageCharge(price: PriceEntry | undefined, result: ImageGenerationResult, asked: ImageAsked): ImageCharge {
  const count = result.images.length;
  const { tier, assumed } = imageTierToBill(price, concreteTier(result.quality) ?? concreteTier(asked.quality), concreteTier(result.size) ?? concreteTier(asked.size));
  const perMegapixel = price?.image?.perMegapixel;
  // A model billed by size alone has no tiers: its images are not billed per image as well.
  const perImage = price?.image !== undefined && (price.image.tiers.length > 0 || perMegapixel === undefined);
  const cost = costNanoUsd(price, {
    ...(result.usage === undefined ? {} : { tokens: result.usage }),
    images: perImage ? [{ ...tier, count }] : [],
    ...(perMegapixel === undefined ? {} : { imagePixels: deliveredPixels(result, asked) }),
  });
  return { quality: tier.quality, size: tier.size, count, costNanoUsd: cost, tierAssumed: assumed };
}

/** The pixels of every image delivered, each by the best account of it there is. */
function deliveredPixels(result: ImageGenerationResult, asked: ImageAsked): bigint {
  return result.images.reduce((total, image) => total + imagePixels(image, result, asked), 0n);
}

function imagePixels(image: GeneratedImage, result: ImageGenerationResult, asked: ImageAsked): bigint {
  const billed = image.billedMegapixels === undefined ? undefined : megapixelsToPixels(image.billedMegapixels);
  if (billed !== undefined) return billed;
  if (image.width !== undefined && image.height !== undefined) return BigInt(image.width) * BigInt(image.height);
  return sizePixels(result.size) ?? sizePixels(asked.size) ?? asked.worstPixels ?? 0n;
}
