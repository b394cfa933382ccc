import type { PriceEntry, VideoVariantPrice } from './pricing/model-price.js';
import type { VideoModelRecord, VideoVariant } from './records/video-model-record.js';

export interface SellableVariant extends VideoVariant {
  readonly price: VideoVariantPrice;
}

/** The variants that have a price in force: a variant without one is not sold, nor listed. */
export function sellableVariants(video: VideoModelRecord, price: PriceEntry | undefined): SellableVariant[] {
  const prices = price?.video?.variants ?? [];
  return video.variants.flatMap((variant) => {
    const sold = prices.find((candidate) => candidate.mode === variant.mode && candidate.resolution === variant.resolution && candidate.aspectRatio === variant.aspectRatio);
    return sold === undefined ? [] : [{ ...variant, price: sold }];
  });
}
