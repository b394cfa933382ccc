import { derivedPerObject } from '../../catalog/pricing/derived-per-object.js';
import type { PriceEntry, TokenPrices, TokenRate } from '../../catalog/pricing/model-price.js';
import type { OutputBound } from './output-bound.js';

/**
 * Output tokens reserved for a text call that sets no output cap and whose model's maximum output
 * is not known: above every current model's largest output, so never an underestimate in practice.
 */
export const uncappedOutputTokens = 128_000;

/** Tokens reserved for each image a request refers to (by URL or inline): above what vendors bill for one image. */
export const tokensPerReferencedImage = 6_000;

const attoPerPico = 1_000_000n;
const attoPerNano = 1_000_000_000n;
const tokensPerMillion = 1_000_000n;

/**
 * The most a text call can cost, from its raw body without tokenizing it (docs/api.md, "Budgets").
 * Input: byte-level tokenizers never produce more tokens than the text has bytes, and the body's
 * bytes are at least the text's, plus an allowance for each image referred to. Output: the
 * request's cap, else `uncappedOutputTokens`, on each choice it asks for. Each side is priced at the dearest rate that could
 * apply to it (cache writes may cost more than input; reasoning may cost more than output; a
 * long-context tier applies if the bound crosses its threshold). Rounded up to the nano-dollar.
 */
export function worstTextCostNanoUsd(price: PriceEntry | undefined, rawBody: string, output: OutputBound): bigint {
  const prices = price?.text ?? price?.image?.tokens;
  if (prices === undefined) return 0n;
  const inputTokens = Buffer.byteLength(rawBody) + referencedImages(rawBody) * tokensPerReferencedImage;
  return tokensWorstNanoUsd(prices, inputTokens, (output.capTokens ?? uncappedOutputTokens) * output.choices);
}

/** Worst cost of `inputTokens` in and `outputTokens` out at the dearest applicable rates. */
export function tokensWorstNanoUsd(prices: TokenPrices, inputTokens: number, outputTokens: number): bigint {
  const flat = flatRates(prices);
  if (flat !== undefined && inputTokens <= safeTokens && outputTokens <= safeTokens) return BigInt(flatWorstNanoUsd(flat, inputTokens, outputTokens));
  const inputRate = maxRate(inputRates(prices), inputTokens);
  const outputRate = maxRate(outputRates(prices), inputTokens);
  const atto = (BigInt(inputTokens) * inputRate + BigInt(outputTokens) * outputRate) * attoPerPico / tokensPerMillion;
  return (atto + attoPerNano - 1n) / attoPerNano;
}

const inputRates = (prices: TokenPrices): readonly TokenRate[] => [prices.input, prices.cacheRead, prices.cacheWrite, prices.cacheWriteOneHour];
const outputRates = (prices: TokenPrices): readonly TokenRate[] => [prices.output, prices.reasoning];

/**
 * Rates with no long-context tier, split at the nano-dollar so that the worst case is integer
 * arithmetic exact in doubles (every product stays below 2^53): the call's path then allocates one
 * bigint, not a dozen. A rate in pico-USD per million tokens is `whole` nano-USD per token plus
 * `part` / 10⁹ of one.
 */
interface FlatRates {
  readonly inputWhole: number;
  readonly inputPart: number;
  readonly outputWhole: number;
  readonly outputPart: number;
}

/** At most this many tokens a side: `tokens × part` stays below 10¹⁵ and `tokens × whole` below 2 · 10¹². */
const safeTokens = 1_000_000;
/** At most this many nano-USD per token ($2,000,000 per million tokens): no price comes near it. */
const safeWhole = 2_000_000n;
/** Undefined for prices with a long-context tier or beyond the safe bounds: those take the bigint path. */
const flatRates = derivedPerObject(splitRates);

function splitRates(prices: TokenPrices): FlatRates | undefined {
  if ([...inputRates(prices), ...outputRates(prices)].some((rate) => rate.tiers.length > 0)) return undefined;
  const input = maxRate(inputRates(prices), 0);
  const output = maxRate(outputRates(prices), 0);
  if (input / attoPerNano > safeWhole || output / attoPerNano > safeWhole) return undefined;
  return {
    inputWhole: Number(input / attoPerNano),
    inputPart: Number(input % attoPerNano),
    outputWhole: Number(output / attoPerNano),
    outputPart: Number(output % attoPerNano),
  };
}

/** Whole nano-dollars, plus the parts' sum rounded up: the bigint path's rounding, exactly. */
function flatWorstNanoUsd(rates: FlatRates, inputTokens: number, outputTokens: number): number {
  const whole = inputTokens * rates.inputWhole + outputTokens * rates.outputWhole;
  const parts = inputTokens * rates.inputPart + outputTokens * rates.outputPart;
  // Exact: `parts` is an integer below 2^53, and a quotient by 10⁹ this small never rounds across an integer.
  const partsNano = Math.floor(parts / 1e9);
  return whole + partsNano + (parts - partsNano * 1e9 > 0 ? 1 : 0);
}

/** The dearest rate any of `rates` charges at or below `inputTokens` (a tier only counts once crossed). */
function maxRate(rates: readonly TokenRate[], inputTokens: number): bigint {
  let max = 0n;
  for (const rate of rates) {
    if (rate.base > max) max = rate.base;
    for (const tier of rate.tiers) if (inputTokens > tier.aboveInputTokens && tier.rate > max) max = tier.rate;
  }
  return max;
}

const imageMarkers = ['"image_url"', '"input_image"', '"type":"image"', '"type": "image"', '"inline_data"', '"inlineData"'];

/** How many images the body refers to, by counting the content-part markers of the three formats. */
function referencedImages(rawBody: string): number {
  // Every marker holds "image" (or "inline"): most bodies have neither, and one scan says so.
  if (!rawBody.includes('image') && !rawBody.includes('inline')) return 0;
  let count = 0;
  for (const marker of imageMarkers) {
    for (let at = rawBody.indexOf(marker); at !== -1; at = rawBody.indexOf(marker, at + marker.length)) count += 1;
  }
  return count;
}
