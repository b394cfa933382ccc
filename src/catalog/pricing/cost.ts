import type { Usage } from '../../ir/usage.js';
import { totalInputTokens } from '../../ir/usage.js';
import type { PriceEntry, TokenPrices, TokenRate, VideoVariantKey } from './model-price.js';

/** Images returned at one tier; with `auto` asked, the tier the upstream reports it produced. */
export interface ImagesDelivered {
  readonly quality: string;
  readonly size: string;
  readonly count: number;
}

/** Everything one call or job delivered that has a price. */
export interface BillableUsage {
  readonly tokens?: Usage;
  readonly images?: readonly ImagesDelivered[];
  /** Pixels of images delivered, for a per-megapixel price (a megapixel is 10^6 of them). */
  readonly imagePixels?: bigint;
  readonly video?: { readonly variant: VideoVariantKey; readonly seconds: number };
}

/** Usage the price in force has no rate for: never billed as free, so the caller must decide. */
export class UnpricedUsageError extends RangeError {
  override readonly name = 'UnpricedUsageError';
}

// Sums run in atto-USD (1e-18): tokens × pico-USD per million tokens is exactly that unit, and
// images or seconds × pico-USD are a million of it. Rounded to nano-USD once, half up, at the end.
const attoPerPico = 1_000_000n;
const attoPerNano = 1_000_000_000n;

/**
 * The cost of what was delivered in nano-USD at the price in force. A model without a price costs
 * 0 (it is published as unpriced, never as free, and refused to keys with a budget), and so does
 * one the operator made free, whatever it delivered; a priced model that delivered something its
 * price has no rate for throws UnpricedUsageError.
 */
export function costNanoUsd(price: PriceEntry | undefined, usage: BillableUsage): bigint {
  if (price === undefined || price.free === true) return 0n;
  let atto = 0n;
  if (usage.tokens !== undefined) {
    const tokenPrices = price.text ?? price.image?.tokens;
    if (tokenPrices !== undefined) atto += tokenAtto(tokenPrices, usage.tokens);
  }
  for (const delivered of usage.images ?? []) {
    if (delivered.count === 0) continue;
    const tier = price.image?.tiers.find((candidate) => candidate.quality === delivered.quality && candidate.size === delivered.size);
    if (tier === undefined) throw new UnpricedUsageError(`no image price for quality ${delivered.quality} at ${delivered.size}`);
    atto += BigInt(delivered.count) * tier.perImage * attoPerPico;
  }
  if (usage.imagePixels !== undefined && usage.imagePixels > 0n) {
    const perMegapixel = price.image?.perMegapixel;
    if (perMegapixel === undefined) throw new UnpricedUsageError('no image price per megapixel');
    // Pico-USD per 10^6 pixels is exactly atto-USD per pixel.
    atto += usage.imagePixels * perMegapixel;
  }
  if (usage.video !== undefined && usage.video.seconds > 0) {
    const { variant, seconds } = usage.video;
    const sold = price.video?.variants.find(
      (candidate) => candidate.mode === variant.mode && candidate.resolution === variant.resolution && candidate.aspectRatio === variant.aspectRatio,
    );
    if (sold === undefined) throw new UnpricedUsageError(`no video price for ${variant.mode} ${variant.resolution} ${variant.aspectRatio}`);
    atto += BigInt(seconds) * sold.perSecond * attoPerPico;
  }
  return roundAttoToNano(atto);
}

/** Seconds of video at a per-second price (pico-USD) in nano-USD, rounded as every cost is. */
export function videoSecondsCostNanoUsd(perSecondPicoUsd: bigint, seconds: number): bigint {
  return roundAttoToNano(BigInt(seconds) * perSecondPicoUsd * attoPerPico);
}

function roundAttoToNano(atto: bigint): bigint {
  return (atto + attoPerNano / 2n) / attoPerNano;
}

function tokenAtto(prices: TokenPrices, usage: Usage): bigint {
  const inputTokens = totalInputTokens(usage);
  const rate = (tokenRate: TokenRate): bigint => rateFor(tokenRate, inputTokens);
  const oneHourWrites = Math.min(usage.cacheWriteOneHour ?? 0, usage.cacheWrite);
  return (
    BigInt(usage.inputUncached) * rate(prices.input) +
    BigInt(usage.cacheRead) * rate(prices.cacheRead) +
    BigInt(usage.cacheWrite - oneHourWrites) * rate(prices.cacheWrite) +
    BigInt(oneHourWrites) * rate(prices.cacheWriteOneHour) +
    BigInt(usage.output) * rate(prices.output) +
    BigInt(usage.reasoning) * rate(prices.reasoning)
  );
}

/** The tier a request of `inputTokens` falls in (tiers are sorted by threshold). */
function rateFor(tokenRate: TokenRate, inputTokens: number): bigint {
  let rate = tokenRate.base;
  for (const tier of tokenRate.tiers) if (inputTokens > tier.aboveInputTokens) rate = tier.rate;
  return rate;
}
