import type { PriceEntry, TokenPrices, TokenRate } from '../catalog/pricing/model-price.js';

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
 * The most a text call can cost, from its raw body without tokenizing it (interface.md §8).
 * Input: byte-level tokenizers never produce more tokens than the text has bytes, and the body's
 * bytes are at least the text's, plus an allowance for each image referred to. Output: the
 * request's cap, else `uncappedOutputTokens`. Each side is priced at the dearest rate that could
 * apply to it (cache writes may cost more than input; reasoning may cost more than output; a
 * long-context tier applies if the bound crosses its threshold). Rounded up to the nano-dollar.
 */
export function worstTextCostNanoUsd(price: PriceEntry | undefined, rawBody: string, outputCap: number | undefined): bigint {
  const prices = price?.text ?? price?.image?.tokens;
  if (prices === undefined) return 0n;
  const inputTokens = Buffer.byteLength(rawBody) + referencedImages(rawBody) * tokensPerReferencedImage;
  return tokensWorstNanoUsd(prices, inputTokens, outputCap ?? uncappedOutputTokens);
}

/** Worst cost of `inputTokens` in and `outputTokens` out at the dearest applicable rates. */
export function tokensWorstNanoUsd(prices: TokenPrices, inputTokens: number, outputTokens: number): bigint {
  const inputRate = maxRate([prices.input, prices.cacheRead, prices.cacheWrite, prices.cacheWriteOneHour], inputTokens);
  const outputRate = maxRate([prices.output, prices.reasoning], inputTokens);
  const atto = (BigInt(inputTokens) * inputRate + BigInt(outputTokens) * outputRate) * attoPerPico / tokensPerMillion;
  return (atto + attoPerNano - 1n) / attoPerNano;
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

/** The output cap a text request sets, in any of the three client formats' names. */
export function requestedOutputCap(body: Readonly<Record<string, unknown>>): number | undefined {
  for (const field of ['max_completion_tokens', 'max_output_tokens', 'max_tokens']) {
    const value = body[field];
    if (typeof value === 'number' && Number.isInteger(value) && value > 0) return value;
  }
  return undefined;
}
