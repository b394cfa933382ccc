import type { PriceEntry, VideoVariantPrice } from './pricing/model-price.js';
import type { VideoModelRecord, VideoVariant } from './records/video-model-record.js';

export interface SellableVariant extends VideoVariant {
  readonly price: VideoVariantPrice;
}

/** The variants that have a price in force: a variant without one is not sold, nor listed. A free model sells every variant at 0. */
export function sellableVariants(video: VideoModelRecord, price: PriceEntry | undefined): SellableVariant[] {
  if (price?.free === true) return video.variants.map((variant) => ({ ...variant, price: { mode: variant.mode, resolution: variant.resolution, aspectRatio: variant.aspectRatio, perSecond: 0n } }));
  const prices = price?.video?.variants ?? [];
  return video.variants.flatMap((variant) => {
    const sold = prices.find((candidate) => candidate.mode === variant.mode && candidate.resolution === variant.resolution && candidate.aspectRatio === variant.aspectRatio);
    return sold === undefined ? [] : [{ ...variant, price: sold }];
  });
}

/** What a submit that leaves the shape or the length out gets. */
export interface DefaultVariant {
  readonly variant: SellableVariant;
  readonly seconds: number;
}

/**
 * The variant a submit of `mode` gets when it names neither `size` nor `resolution` and
 * `aspect_ratio`: the first one sold, at its shortest length (the length a submit that names a
 * shape but no `seconds` gets too). Published as each video model's `defaults`.
 */
export function defaultVariant(sold: readonly SellableVariant[], mode: VideoVariant['mode']): DefaultVariant | undefined {
  const variant = sold.find((candidate) => candidate.mode === mode);
  return variant === undefined ? undefined : { variant, seconds: shortestLength(variant) };
}

/** The length a submit of `variant` that names no `seconds` gets. */
export function shortestLength(variant: SellableVariant): number {
  return Math.min(...variant.seconds);
}
