import type { LedgerEntry } from './ledger-entry.js';

export interface LedgerListFilter {
  readonly keyId?: string;
  /** Inclusive lower bound on `createdAt`. */
  readonly since?: Date;
  /** Maximum number of entries; all matching entries when absent. */
  readonly limit?: number;
}

export interface LedgerTotalsFilter {
  readonly keyId?: string;
  /** Inclusive lower bound on `createdAt`. */
  readonly since?: Date;
}

/** Ledger sums for one key, one model and one UTC day. */
export interface LedgerTotals {
  readonly keyId: string | null;
  readonly model: string;
  /** UTC calendar day, `YYYY-MM-DD`. */
  readonly day: string;
  readonly requests: number;
  /** Uncached input + cache read + cache write. */
  readonly inputTokens: number;
  /** Visible output + reasoning. */
  readonly outputTokens: number;
  readonly cacheReadTokens: number;
  readonly cacheWriteTokens: number;
  readonly reasoningTokens: number;
  readonly images: number;
  readonly videoSeconds: number;
  readonly costNanoUsd: bigint;
}

/** A key's running spend totals, nano-USD. */
export interface KeySpend {
  readonly total: bigint;
  /** In the UTC calendar month of the time asked about. */
  readonly month: bigint;
  /** On the UTC day of the time asked about. */
  readonly day: bigint;
}

export type UsageGrouping = 'key' | 'model' | 'day';

export interface UsageQuery {
  readonly groupBy: UsageGrouping;
  /** The rollups summed: `day` (the default) or `hour`, for a range shorter than a day. */
  readonly step?: 'hour' | 'day';
  /** Inclusive; rounded down to its step (UTC). */
  readonly since?: Date;
  /** Exclusive; rounded up to its step (UTC). */
  readonly until?: Date;
  readonly keyId?: string;
}

/** Sums for one group: a key (`group` is the key id, '' without a key), a model or a UTC day. */
export interface UsageGroup {
  readonly group: string;
  readonly requests: number;
  readonly errors: number;
  readonly inputUncached: number;
  readonly cacheRead: number;
  readonly cacheWrite: number;
  readonly output: number;
  readonly reasoning: number;
  readonly images: number;
  readonly videoSeconds: number;
  readonly costNanoUsd: bigint;
}

export type SeriesMetric = 'requests' | 'cost' | 'errors' | 'latency_p50' | 'latency_p95';
export type SeriesStep = 'minute' | 'hour' | 'day';

export interface SeriesQuery {
  readonly metric: SeriesMetric;
  readonly step: SeriesStep;
  /** Inclusive bucket start. */
  readonly since: Date;
  /** Exclusive. */
  readonly until: Date;
  readonly keyId?: string;
  readonly model?: string;
}

/** One bucket with data (empty buckets are left out). Cost is nano-USD; latency is milliseconds. */
export interface SeriesPoint {
  readonly at: Date;
  readonly value: number | bigint;
}

/** Where a page of recent calls starts: strictly older than this entry. */
export interface LedgerCursor {
  readonly createdAt: Date;
  readonly requestId: string;
}

export interface LedgerExportFilter {
  readonly since?: Date;
  /** Exclusive. */
  readonly until?: Date;
  readonly keyId?: string;
  readonly model?: string;
}

export interface UsageLedger {
  /**
   * Appends once per request id. A repeated request id is ignored (the first entry stays as it
   * was) and yields false; it never throws for that reason.
   */
  append(entry: LedgerEntry): Promise<boolean>;
  /**
   * Appends many entries in one go (one statement per chunk, or one transaction), with the same
   * once-per-request-id rule; resolves to how many were new. This is how the gateway writes.
   */
  appendMany(entries: readonly LedgerEntry[]): Promise<number>;
  /** Matching entries, newest first. */
  list(filter?: LedgerListFilter): Promise<LedgerEntry[]>;
  /** Sums grouped by key, model and UTC day, ordered by day, then key, then model. */
  totals(filter?: LedgerTotalsFilter): Promise<LedgerTotals[]>;
  /** Everything a key has spent, over its whole life. */
  spentNanoUsd(keyId: string): Promise<bigint>;
  /** A key's running totals for its whole life, and the UTC month and day of `at`: three indexed rows. */
  spend(keyId: string, at: Date): Promise<KeySpend>;
  /** Sums by key, model or day, from the daily rollups. */
  usage(query: UsageQuery): Promise<UsageGroup[]>;
  /** A metric per bucket, from the rollups of that step. */
  series(query: SeriesQuery): Promise<SeriesPoint[]>;
  /** The most recent entries, newest first, from `before` on. */
  recent(query: { readonly limit: number; readonly before?: LedgerCursor; readonly keyId?: string }): Promise<LedgerEntry[]>;
  /** Every matching entry, oldest first, read in pages so any number can be streamed. */
  entries(filter: LedgerExportFilter): AsyncIterable<LedgerEntry>;
}
