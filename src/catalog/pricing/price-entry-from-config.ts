import type { PriceEntryConfig } from '../../config/model-record-schema.js';
import { parseUsdToPico, type PicoUsd } from './decimal-usd.js';
import type { ImageTierPrice, PriceEntry, TokenPrices, TokenRate, VideoVariantPrice } from './model-price.js';

const epoch = '1970-01-01';

function flat(rate: PicoUsd): TokenRate {
  return { base: rate, tiers: [] };
}

/** Whether an entry names any rate of its own (otherwise it only dates or marks up the default price). */
export function hasOwnRates(config: PriceEntryConfig): boolean {
  return config.free === true || hasTokenRates(config) || config.per_image !== undefined || config.per_megapixel !== undefined || config.per_second !== undefined;
}

function hasTokenRates(config: PriceEntryConfig): boolean {
  return [config.input_per_mtok, config.output_per_mtok, config.cache_read_per_mtok, config.cache_write_per_mtok, config.cache_write_1h_per_mtok, config.reasoning_per_mtok].some(
    (value) => value !== undefined,
  );
}

/**
 * Token prices from the config's fields. Without a separate cache or reasoning price, those tokens
 * cost what plain input or output costs; one-hour cache writes cost what five-minute ones do.
 */
function tokenPrices(config: PriceEntryConfig): TokenPrices | undefined {
  if (!hasTokenRates(config)) return undefined;
  const input = parseUsdToPico(config.input_per_mtok ?? '0');
  const output = parseUsdToPico(config.output_per_mtok ?? '0');
  const cacheWrite = config.cache_write_per_mtok === undefined ? input : parseUsdToPico(config.cache_write_per_mtok);
  return {
    input: flat(input),
    output: flat(output),
    cacheRead: flat(config.cache_read_per_mtok === undefined ? input : parseUsdToPico(config.cache_read_per_mtok)),
    cacheWrite: flat(cacheWrite),
    cacheWriteOneHour: flat(config.cache_write_1h_per_mtok === undefined ? cacheWrite : parseUsdToPico(config.cache_write_1h_per_mtok)),
    reasoning: flat(config.reasoning_per_mtok === undefined ? output : parseUsdToPico(config.reasoning_per_mtok)),
  };
}

function imageTiers(perImage: Readonly<Record<string, string>>): ImageTierPrice[] {
  return Object.entries(perImage).map(([tier, usd]) => {
    const [quality, size] = tier.split('/') as [string, string];
    return { quality, size, perImage: parseUsdToPico(usd) };
  });
}

function videoVariants(perSecond: Readonly<Record<string, string>>): VideoVariantPrice[] {
  return Object.entries(perSecond).map(([variant, usd]) => {
    const [mode, resolution, aspectRatio] = variant.split('/') as [string, string, string];
    return { mode, resolution, aspectRatio, perSecond: parseUsdToPico(usd) };
  });
}

/**
 * One configured price as an entry (markup not yet applied). Token fields price text; with
 * `per_image` they are charged on top of the per-image price, as the model's price says.
 */
export function priceEntryFromConfig(config: PriceEntryConfig, modality: 'text' | 'image' | 'video', fallbackFrom = epoch): PriceEntry {
  const effectiveFrom = config.effective_from ?? fallbackFrom;
  if (config.free === true) return freeEntry(effectiveFrom, modality);
  const tokens = tokenPrices(config);
  if (modality === 'image') {
    return {
      effectiveFrom,
      image: {
        tiers: imageTiers(config.per_image ?? {}),
        ...(config.per_megapixel === undefined ? {} : { perMegapixel: parseUsdToPico(config.per_megapixel) }),
        ...(tokens === undefined ? {} : { tokens }),
      },
    };
  }
  if (modality === 'video') return { effectiveFrom, video: { variants: videoVariants(config.per_second ?? {}) } };
  return { effectiveFrom, ...(tokens === undefined ? {} : { text: tokens }) };
}

/** Every rate zero: a free model costs nothing, and its ledger entries say so exactly. */
function freeEntry(effectiveFrom: string, modality: 'text' | 'image' | 'video'): PriceEntry {
  const zero = flat(0n);
  if (modality === 'image') return { effectiveFrom, free: true, image: { tiers: [] } };
  if (modality === 'video') return { effectiveFrom, free: true, video: { variants: [] } };
  return { effectiveFrom, free: true, text: { input: zero, output: zero, cacheRead: zero, cacheWrite: zero, cacheWriteOneHour: zero, reasoning: zero } };
}
