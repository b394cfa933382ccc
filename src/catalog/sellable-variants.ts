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
