import { withMarkup } from './decimal-usd.js';
import type { PriceEntry, TokenPrices, TokenRate } from './model-price.js';

function markedRate(rate: TokenRate, percent: string): TokenRate {
  return { base: withMarkup(rate.base, percent), tiers: rate.tiers.map((tier) => ({ ...tier, rate: withMarkup(tier.rate, percent) })) };
}

function markedTokens(prices: TokenPrices, percent: string): TokenPrices {
  return {
    input: markedRate(prices.input, percent),
    output: markedRate(prices.output, percent),
    cacheRead: markedRate(prices.cacheRead, percent),
    cacheWrite: markedRate(prices.cacheWrite, percent),
    cacheWriteOneHour: markedRate(prices.cacheWriteOneHour, percent),
    reasoning: markedRate(prices.reasoning, percent),
  };
}

/** Every rate of an entry scaled by `markup_percent`: what is sold, not what the upstream charges. */
export function applyMarkup(entry: PriceEntry, percent: string | undefined): PriceEntry {
  if (percent === undefined) return entry;
  return {
    effectiveFrom: entry.effectiveFrom,
    ...(entry.text === undefined ? {} : { text: markedTokens(entry.text, percent) }),
    ...(entry.image === undefined
      ? {}
      : {
          image: {
            tiers: entry.image.tiers.map((tier) => ({ ...tier, perImage: withMarkup(tier.perImage, percent) })),
            ...(entry.image.perMegapixel === undefined ? {} : { perMegapixel: withMarkup(entry.image.perMegapixel, percent) }),
            ...(entry.image.tokens === undefined ? {} : { tokens: markedTokens(entry.image.tokens, percent) }),
          },
        }),
    ...(entry.video === undefined ? {} : { video: { variants: entry.video.variants.map((variant) => ({ ...variant, perSecond: withMarkup(variant.perSecond, percent) })) } }),
  };
}
