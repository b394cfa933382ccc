import type { PicoUsd } from './decimal-usd.js';

/**
 * A token rate in pico-USD per million tokens. Long-context prices rise with the request's size:
 * the rate of the highest tier whose threshold the request's input tokens exceed applies to every
 * token of the bucket (as the vendors bill it).
 */
export interface TokenRate {
  readonly base: PicoUsd;
  readonly tiers: readonly { readonly aboveInputTokens: number; readonly rate: PicoUsd }[];
}

/** Prices of the disjoint token buckets of `Usage`. */
export interface TokenPrices {
  readonly input: TokenRate;
  readonly output: TokenRate;
  readonly cacheRead: TokenRate;
  /** Cache writes kept five minutes (Anthropic's default; the only kind other vendors have). */
  readonly cacheWrite: TokenRate;
  /** Cache writes kept one hour. */
  readonly cacheWriteOneHour: TokenRate;
  readonly reasoning: TokenRate;
}

/** One image price: quality × size → pico-USD per image returned. */
export interface ImageTierPrice {
  readonly quality: string;
  readonly size: string;
  readonly perImage: PicoUsd;
}

export interface ImagePrices {
  readonly tiers: readonly ImageTierPrice[];
  /** Pico-USD per megapixel (10^6 pixels) of output, where the model bills by size. */
  readonly perMegapixel?: PicoUsd;
  /** Token charges on top of the per-image price, only where the model's price has them. */
  readonly tokens?: TokenPrices;
}

/** What identifies one sold video variant. */
export interface VideoVariantKey {
  readonly mode: string;
  readonly resolution: string;
  readonly aspectRatio: string;
}

export interface VideoVariantPrice extends VideoVariantKey {
  readonly perSecond: PicoUsd;
}

export interface VideoPrices {
  readonly variants: readonly VideoVariantPrice[];
}

/** The prices of one model from a date on (UTC midnight), markup already applied. */
export interface PriceEntry {
  /** `YYYY-MM-DD`. */
  readonly effectiveFrom: string;
  /** Set by the operator's explicit `free: true`: the model is served at no cost, budgeted keys included. */
  readonly free?: true;
  readonly text?: TokenPrices;
  readonly image?: ImagePrices;
  readonly video?: VideoPrices;
}

/**
 * Where a model's prices came from, shown to operators: the operator's config, the pricing
 * dataset's row for the cloud that serves it, the dataset's row for the model's vendor (its own API,
 * or a cloud the dataset says sells it at the vendor's price), or the gateway's own media prices.
 */
export type PriceSource = 'config' | 'cloud-dataset' | 'vendor-dataset' | 'builtin';

/** A Bedrock cross-region inference profile's price against its model's in one region. */
export interface CrossRegionPricing {
  /** The profile's prefix without its dot: `us`, `eu`, `apac`, `global`, … */
  readonly prefix: string;
  /** True when the dataset prices the profile's id itself; false when the prefix was cut to find a price. */
  readonly profilePriced: boolean;
  /** The profile's input rate against the in-region model's, as the dataset has them. */
  readonly againstInRegion: 'higher' | 'lower' | 'same' | 'unknown';
}

/** The dataset row a model's default prices came from. */
export interface DatasetOrigin {
  /** The dataset's provider id (`aws`, `google`, `azure`, `openai`, …). */
  readonly provider: string;
  /** The dataset's model id. */
  readonly model: string;
  /** The id that matched it, after the cloud's normalisations. */
  readonly lookedUp: string;
  readonly crossRegion?: CrossRegionPricing;
}

/** Every price of one model over time, oldest first: past, current and scheduled. */
export interface PriceSchedule {
  readonly entries: readonly PriceEntry[];
  readonly source: PriceSource;
  /** For prices from the dataset (marked up or not): the row they came from. */
  readonly origin?: DatasetOrigin;
}
