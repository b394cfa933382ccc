import type { LedgerEntry } from '../metering/ledger-entry.js';

/** Upper bounds (ms) of the latency histogram kept in every rollup row; a last bucket holds the rest. */
export const latencyBucketBoundsMs = [50, 100, 250, 500, 1_000, 2_500, 5_000, 10_000, 30_000, 60_000, 120_000] as const;

export const rollupSteps = ['minute', 'hour', 'day'] as const;
export type RollupStep = (typeof rollupSteps)[number];

/** What one batch of new ledger entries adds to a key's running total for one period. */
export interface SpendIncrement {
  readonly keyId: string;
  /** `all`, a UTC month `YYYY-MM` or a UTC day `YYYY-MM-DD`. */
  readonly period: string;
  readonly costNanoUsd: bigint;
}

/** Summed figures of a rollup row, in the order of the `usage_rollups` count columns. */
export interface RollupCounts {
  requests: number;
  errors: number;
  inputUncached: number;
  cacheRead: number;
  cacheWrite: number;
  output: number;
  reasoning: number;
  images: number;
  videoSeconds: number;
  durationMs: number;
}

/** What one batch adds to one bucket's totals over every key and model (one step and bucket). */
export interface TotalIncrement {
  readonly step: RollupStep;
  readonly bucketStart: Date;
  readonly counts: RollupCounts;
  /** Calls per latency bucket (`latencyBucketBoundsMs`, then the open one). */
  readonly latency: number[];
  costNanoUsd: bigint;
}

/** What one batch adds to one rollup row (one step, bucket, key and model). */
export interface RollupIncrement extends TotalIncrement {
  /** The key id, or '' for calls made without a key. */
  readonly keyScope: string;
  readonly model: string;
}

export interface LedgerIncrements {
  readonly spend: SpendIncrement[];
  readonly rollups: RollupIncrement[];
  /** The same sums per bucket alone (`usage_totals`), so a chart over every key reads a row per bucket. */
  readonly totals: TotalIncrement[];
}

export interface SpendPeriods {
  readonly all: 'all';
  /** `YYYY-MM`, UTC. */
  readonly month: string;
  /** `YYYY-MM-DD`, UTC. */
  readonly day: string;
}

const dayMs = 86_400_000;
let lastDay = Number.NaN;
let lastPeriods: SpendPeriods = { all: 'all', month: '', day: '' };

/**
 * The periods a call made at `at` counts towards: the key's whole life, its UTC month and day.
 * Asked on every budgeted call, so the strings of the latest day are kept rather than formatted again.
 */
export function spendPeriods(at: Date | number): SpendPeriods {
  const ms = typeof at === 'number' ? at : at.getTime();
  const day = Math.floor(ms / dayMs);
  if (day !== lastDay) {
    const iso = new Date(ms).toISOString();
    lastPeriods = { all: 'all', month: iso.slice(0, 7), day: iso.slice(0, 10) };
    lastDay = day;
  }
  return lastPeriods;
}

/** Start of the rollup bucket of `step` that holds `at` (UTC). */
export function bucketStart(step: RollupStep, at: Date): Date {
  const start = new Date(at.getTime());
  start.setUTCSeconds(0, 0);
  if (step !== 'minute') start.setUTCMinutes(0);
  if (step === 'day') start.setUTCHours(0);
  return start;
}

/** The latency bucket a call of `durationMs` falls in. */
export function latencyBucket(durationMs: number): number {
  const index = latencyBucketBoundsMs.findIndex((bound) => durationMs <= bound);
  return index === -1 ? latencyBucketBoundsMs.length : index;
}

/**
 * Folds newly stored ledger entries into running totals and rollups, so a batch costs one upsert
 * per key and period and one per rollup row it touches, however many entries it holds. Storage
 * adapters apply the result in the same transaction as the entries: totals never disagree with
 * the ledger they sum.
 */
export function ledgerIncrements(entries: readonly LedgerEntry[]): LedgerIncrements {
  const spend = new Map<string, { keyId: string; period: string; costNanoUsd: bigint }>();
  const rollups = new Map<string, RollupIncrement>();
  const totals = new Map<string, TotalIncrement>();
  for (const entry of entries) {
    if (entry.keyId !== null) {
      for (const period of Object.values(spendPeriods(entry.createdAt))) {
        const id = `${entry.keyId}\u0000${period}`;
        const total = spend.get(id) ?? { keyId: entry.keyId, period, costNanoUsd: 0n };
        total.costNanoUsd += entry.costNanoUsd;
        spend.set(id, total);
      }
    }
    for (const step of rollupSteps) {
      const start = bucketStart(step, entry.createdAt);
      const keyScope = entry.keyId ?? '';
      const id = `${step}\u0000${start.getTime()}\u0000${keyScope}\u0000${entry.model}`;
      let row = rollups.get(id);
      if (row === undefined) {
        row = { ...emptyTotal(step, start), keyScope, model: entry.model };
        rollups.set(id, row);
      }
      addEntry(row, entry);
      const totalId = `${step}\u0000${start.getTime()}`;
      let total = totals.get(totalId);
      if (total === undefined) {
        total = emptyTotal(step, start);
        totals.set(totalId, total);
      }
      addEntry(total, entry);
    }
  }
  return { spend: [...spend.values()], rollups: [...rollups.values()], totals: [...totals.values()] };
}

function emptyTotal(step: RollupStep, bucketStart: Date): TotalIncrement {
  return { step, bucketStart, counts: emptyCounts(), latency: new Array<number>(latencyBucketBoundsMs.length + 1).fill(0), costNanoUsd: 0n };
}

function emptyCounts(): RollupCounts {
  return { requests: 0, errors: 0, inputUncached: 0, cacheRead: 0, cacheWrite: 0, output: 0, reasoning: 0, images: 0, videoSeconds: 0, durationMs: 0 };
}

function addEntry(row: TotalIncrement, entry: LedgerEntry): void {
  const counts = row.counts;
  counts.requests += 1;
  if (entry.status >= 400) counts.errors += 1;
  counts.inputUncached += entry.inputUncached;
  counts.cacheRead += entry.cacheRead;
  counts.cacheWrite += entry.cacheWrite;
  counts.output += entry.output;
  counts.reasoning += entry.reasoning;
  counts.images += entry.images;
  counts.videoSeconds += entry.videoSeconds;
  counts.durationMs += entry.durationMs;
  const bucket = latencyBucket(entry.durationMs);
  row.latency[bucket] = (row.latency[bucket] ?? 0) + 1;
  row.costNanoUsd += entry.costNanoUsd;
}

/** Column names of the rollup counts, in `RollupCounts` order. */
export const rollupCountColumns = [
  ['requests', 'requests'],
  ['errors', 'errors'],
  ['input_uncached', 'inputUncached'],
  ['cache_read', 'cacheRead'],
  ['cache_write', 'cacheWrite'],
  ['output', 'output'],
  ['reasoning', 'reasoning'],
  ['images', 'images'],
  ['video_seconds', 'videoSeconds'],
  ['duration_ms', 'durationMs'],
] as const satisfies readonly (readonly [string, keyof RollupCounts])[];

/** `latency_0` … `latency_11`. */
export const latencyBucketColumns = Array.from({ length: latencyBucketBoundsMs.length + 1 }, (_, index) => `latency_${index}`);
