import { formatPicoUsd } from '../pricing/decimal-usd.js';
import type { ImagePrices, PriceEntry, TokenPrices, TokenRate, VideoPrices } from '../pricing/model-price.js';
import type { VideoModelRecord } from '../records/video-model-record.js';
import { sellableVariants, type SellableVariant } from '../sellable-variants.js';

/** Token prices as published: decimal strings of USD with the unit in each field's name. */
export function publishedTokenPrices(prices: TokenPrices): Record<string, unknown> {
  const published: Record<string, unknown> = {
    input_usd_per_mtok: formatPicoUsd(prices.input.base),
    output_usd_per_mtok: formatPicoUsd(prices.output.base),
    cache_read_usd_per_mtok: formatPicoUsd(prices.cacheRead.base),
    cache_write_usd_per_mtok: formatPicoUsd(prices.cacheWrite.base),
    cache_write_1h_usd_per_mtok: formatPicoUsd(prices.cacheWriteOneHour.base),
    reasoning_usd_per_mtok: formatPicoUsd(prices.reasoning.base),
  };
  const longContext = longContextTiers(prices);
  if (longContext.length > 0) published.long_context = longContext;
  return published;
}

/** Long-context prices: from each threshold on, every bucket's rate for requests whose input exceeds it. */
function longContextTiers(prices: TokenPrices): Record<string, string | number>[] {
  const buckets: [string, TokenRate][] = [
    ['input_usd_per_mtok', prices.input],
    ['output_usd_per_mtok', prices.output],
    ['cache_read_usd_per_mtok', prices.cacheRead],
    ['cache_write_usd_per_mtok', prices.cacheWrite],
    ['cache_write_1h_usd_per_mtok', prices.cacheWriteOneHour],
    ['reasoning_usd_per_mtok', prices.reasoning],
  ];
  const thresholds = [...new Set(buckets.flatMap(([, rate]) => rate.tiers.map((tier) => tier.aboveInputTokens)))].sort((left, right) => left - right);
  return thresholds.map((threshold) => {
    const tier: Record<string, string | number> = { above_input_tokens: threshold };
    for (const [name, rate] of buckets) {
      const applying = rate.tiers.filter((candidate) => candidate.aboveInputTokens <= threshold).at(-1);
      tier[name] = formatPicoUsd(applying?.rate ?? rate.base);
    }
    return tier;
  });
}

export function publishedImagePrices(prices: ImagePrices): Record<string, unknown> {
  return {
    tiers: prices.tiers.map((tier) => ({ quality: tier.quality, size: tier.size, usd_per_image: formatPicoUsd(tier.perImage) })),
    ...(prices.perMegapixel === undefined ? {} : { usd_per_megapixel: formatPicoUsd(prices.perMegapixel) }),
    ...(prices.tokens === undefined ? {} : { tokens: publishedTokenPrices(prices.tokens) }),
  };
}

/** Video prices as the variants they sell: only variants the model makes and this entry prices. */
export function publishedVideoPrices(prices: VideoPrices, video: VideoModelRecord | undefined): Record<string, unknown> {
  const entry: PriceEntry = { effectiveFrom: '', video: prices };
  const variants = video === undefined ? [] : sellableVariants(video, entry);
  return { variants: variants.map(publishedVariant) };
}

/** One sold variant; lengths are strings, as the `openai` SDK sends `seconds`. */
export function publishedVariant(variant: SellableVariant): Record<string, unknown> {
  return {
    mode: variant.mode,
    resolution: variant.resolution,
    aspect_ratio: variant.aspectRatio,
    size: variant.size,
    seconds: variant.seconds.map(String),
    usd_per_second: formatPicoUsd(variant.price.perSecond),
  };
}
