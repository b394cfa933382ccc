import type { ConditionalPrice, ModelInfo, ModelPrice, TieredPrices } from '@pydantic/genai-prices';
import { parseUsdToPico, type PicoUsd } from './decimal-usd.js';
import type { PriceEntry, TokenPrices, TokenRate } from './model-price.js';

/** Before any dated price: the dataset applies a model's first price to every earlier call. */
const sinceAlways = '1970-01-01';

// Output of another modality is billed per token at its own, far higher rate; `Usage.output` does
// not tell those tokens from text, so such a model gets no token price rather than a wrong one.
// (Input of other modalities — audio, images — is billed at the text input rate.)
const separatelyPricedOutput = /^output_(audio|image|video)_/;

/**
 * A dataset price in USD per million tokens → pico-USD, exactly: the dataset writes short
 * decimals, whose shortest JavaScript spelling is that decimal. An exponent spelling ("1e-7")
 * means a value this conversion was not written for, so it is refused rather than guessed.
 */
export function picoFromDatasetNumber(value: number): PicoUsd {
  const decimal = String(value);
  if (!/^\d+(\.\d+)?$/.test(decimal)) throw new RangeError(`dataset price ${decimal} is not a plain decimal`);
  return parseUsdToPico(decimal);
}

function tokenRate(value: number | TieredPrices): TokenRate {
  if (typeof value === 'number') return { base: picoFromDatasetNumber(value), tiers: [] };
  const tiers = [...value.tiers]
    .sort((left, right) => left.start - right.start)
    .map((tier) => ({ aboveInputTokens: tier.start, rate: picoFromDatasetNumber(tier.price) }));
  return { base: picoFromDatasetNumber(value.base), tiers };
}

/**
 * The dataset's price keys → our buckets. A bucket without its own price costs what the vendors
 * bill it at: cache reads and writes the input price, one-hour writes the cache-write price, and
 * reasoning the output price (every vendor bills thinking tokens as output).
 */
function tokenPrices(price: ModelPrice): TokenPrices | undefined {
  const { input_mtok: input, output_mtok: output } = price;
  if (input === undefined || output === undefined) return undefined;
  if (Object.keys(price).some((key) => separatelyPricedOutput.test(key))) return undefined;
  const rateOf = (key: string, otherwise: TokenRate): TokenRate => {
    const value = price[key];
    return value === undefined ? otherwise : tokenRate(value);
  };
  const inputRate = tokenRate(input);
  const outputRate = tokenRate(output);
  const cacheWrite = rateOf('cache_write_mtok', inputRate);
  return {
    input: inputRate,
    output: outputRate,
    cacheRead: rateOf('cache_read_mtok', inputRate),
    cacheWrite,
    cacheWriteOneHour: rateOf('cache_write_1h_mtok', cacheWrite),
    reasoning: outputRate,
  };
}

/**
 * A dataset model's token prices as effective-dated entries, oldest first; undefined when any of
 * its prices lacks an input or output rate (left unpriced, never sold as free). Prices limited to
 * a time of day (off-peak discounts) are left out: the gateway sells one price per day, so such
 * calls pay the all-day price.
 */
export function datasetPriceEntries(model: ModelInfo): PriceEntry[] | undefined {
  const conditional: readonly ConditionalPrice[] = Array.isArray(model.prices) ? model.prices : [{ prices: model.prices }];
  const entries: PriceEntry[] = [];
  for (const candidate of conditional) {
    if (candidate.constraint?.type === 'time_of_date') continue;
    const text = tokenPrices(candidate.prices);
    if (text === undefined) return undefined;
    const effectiveFrom = entries.length === 0 || candidate.constraint === undefined ? sinceAlways : candidate.constraint.start_date;
    if (entries.some((entry) => entry.effectiveFrom === effectiveFrom)) {
      throw new RangeError(`dataset model ${model.id} has two prices from ${effectiveFrom}`);
    }
    entries.push({ effectiveFrom, text });
  }
  if (entries.length === 0) return undefined;
  return entries.sort((left, right) => left.effectiveFrom.localeCompare(right.effectiveFrom));
}
