import type { LedgerEntry } from '../metering/ledger-entry.js';

/** Upper bounds (ms) of the latency histogram kept in every rollup row; a last bucket holds the rest. */
export const latencyBucketBoundsMs = [50, 100, 250, 500, 1_000, 2_500, 5_000, 10_000, 30_000, 60_000, 120_000] as const;

/** Column names of the rollup counts, each with the entry field it sums (`requests` and `errors` count calls), in the order of an increment's `sums`. */
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
] as const;

/** `latency_0` … `latency_11`. */
export const latencyBucketColumns = Array.from({ length: latencyBucketBoundsMs.length + 1 }, (_, index) => `latency_${index}`);

/** The summed columns of `usage_rollups` and `usage_totals` but the cost, in the order of an increment's `sums`. */
export const summedColumns: readonly string[] = [...rollupCountColumns.map(([column]) => column), ...latencyBucketColumns];

export const rollupSteps = ['minute', 'hour', 'day'] as const;
export type RollupStep = (typeof rollupSteps)[number];

/** What one batch of new ledger entries adds to a key's running total for one period. */
export interface SpendIncrement {
  readonly keyId: string;
  /** `all`, a UTC month `YYYY-MM` or a UTC day `YYYY-MM-DD`. */
  readonly period: string;
  readonly costNanoUsd: bigint;
}

/**
 * What one batch adds to one bucket's totals over every key and model (one step and bucket): the
 * columns of `summedColumns` (counts, then calls per latency bucket) by position, and the cost.
 */
export interface TotalIncrement {
  readonly step: RollupStep;
  readonly bucketStart: Date;
  /** One value per column of `summedColumns`, in its order. */
  readonly sums: number[];
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

const minuteMs = 60_000;
const stepMs: Readonly<Record<RollupStep, number>> = { minute: minuteMs, hour: 3_600_000, day: dayMs };

/** The start (ms) of the UTC period of `unitMs` holding `ms`: JavaScript time has no leap seconds, so UTC periods are plain multiples. */
function periodStart(ms: number, unitMs: number): number {
  return ms - (((ms % unitMs) + unitMs) % unitMs);
}

/** Start of the rollup bucket of `step` that holds `at` (UTC). */
export function bucketStart(step: RollupStep, at: Date): Date {
  return new Date(periodStart(at.getTime(), stepMs[step]));
}

/** The latency bucket a call of `durationMs` falls in. */
export function latencyBucket(durationMs: number): number {
  for (let index = 0; index < latencyBucketBoundsMs.length; index++) {
    if (durationMs <= latencyBucketBoundsMs[index]!) return index;
  }
  return latencyBucketBoundsMs.length;
}

/** Sums of one bucket, key and model; keyed by the bucket's start in ms, the key scope and the model. */
interface Sums {
  readonly sums: number[];
  costNanoUsd: bigint;
}
type BucketRows = Map<number, Map<string, Map<string, Sums>>>;

/**
 * Folds newly stored ledger entries into running totals and rollups, so a batch costs one upsert
 * per key and period and one per rollup row it touches, however many entries it holds. Storage
 * adapters apply the result in the same transaction as the entries: totals never disagree with
 * the ledger they sum.
 *
 * It runs for every batch the gateway writes, so an entry costs one fold into its minute's row (a
 * batch rarely spans two minutes, and the minute's rows are looked up by key and model without
 * building a string); the hour and day rows, the bucket totals and the key's spend are then summed
 * from those few minute rows, not from every entry again.
 */
export function ledgerIncrements(entries: readonly LedgerEntry[]): LedgerIncrements {
  const minutes: BucketRows = new Map();
  let lastMinute = Number.NaN;
  let minuteRows: Map<string, Map<string, Sums>> = new Map();
  for (const entry of entries) {
    const minute = periodStart(entry.createdAt.getTime(), minuteMs);
    if (minute !== lastMinute) {
      minuteRows = rowsOf(minutes, minute);
      lastMinute = minute;
    }
    addEntry(rowOf(minuteRows, entry.keyId ?? '', entry.model), entry);
  }
  const hours: BucketRows = new Map();
  const days: BucketRows = new Map();
  for (const [minute, keys] of minutes) {
    const hourRows = rowsOf(hours, periodStart(minute, stepMs.hour));
    const dayRows = rowsOf(days, periodStart(minute, dayMs));
    for (const [keyScope, models] of keys) {
      for (const [model, sums] of models) {
        addSums(rowOf(hourRows, keyScope, model), sums);
        addSums(rowOf(dayRows, keyScope, model), sums);
      }
    }
  }
  const rollups: RollupIncrement[] = [];
  const totals: TotalIncrement[] = [];
  for (const [step, buckets] of [['minute', minutes], ['hour', hours], ['day', days]] as const) {
    for (const [start, keys] of buckets) {
      const bucketStart = new Date(start);
      const total: TotalIncrement = { step, bucketStart, sums: emptySums(), costNanoUsd: 0n };
      for (const [keyScope, models] of keys) {
        for (const [model, sums] of models) {
          rollups.push({ step, bucketStart, keyScope, model, sums: sums.sums, costNanoUsd: sums.costNanoUsd });
          addSums(total, sums);
        }
      }
      totals.push(total);
    }
  }
  return { spend: spendIncrements(days), rollups, totals };
}

/** A key's spend per period, from its day rows: a call counts towards its key's whole life, UTC month and day. */
function spendIncrements(days: BucketRows): SpendIncrement[] {
  const spend = new Map<string, { keyId: string; period: string; costNanoUsd: bigint }>();
  for (const [day, keys] of days) {
    const periods = spendPeriods(day);
    for (const [keyScope, models] of keys) {
      // Calls made without a key spend no key's budget.
      if (keyScope === '') continue;
      let cost = 0n;
      for (const sums of models.values()) cost += sums.costNanoUsd;
      for (const period of [periods.all, periods.month, periods.day]) {
        const id = `${keyScope}\u0000${period}`;
        const total = spend.get(id);
        if (total === undefined) spend.set(id, { keyId: keyScope, period, costNanoUsd: cost });
        else total.costNanoUsd += cost;
      }
    }
  }
  return [...spend.values()];
}

function rowsOf(buckets: BucketRows, start: number): Map<string, Map<string, Sums>> {
  let rows = buckets.get(start);
  if (rows === undefined) {
    rows = new Map();
    buckets.set(start, rows);
  }
  return rows;
}

function rowOf(rows: Map<string, Map<string, Sums>>, keyScope: string, model: string): Sums {
  let models = rows.get(keyScope);
  if (models === undefined) {
    models = new Map();
    rows.set(keyScope, models);
  }
  let row = models.get(model);
  if (row === undefined) {
    row = { sums: emptySums(), costNanoUsd: 0n };
    models.set(model, row);
  }
  return row;
}

function emptySums(): number[] {
  return new Array<number>(summedColumns.length).fill(0);
}

/** Where the calls per latency bucket start in a row's sums: after the counts. */
const latencyOffset = rollupCountColumns.length;

function addEntry(row: Sums, entry: LedgerEntry): void {
  // In the order of `rollupCountColumns`.
  const sums = row.sums;
  sums[0]! += 1;
  if (entry.status >= 400) sums[1]! += 1;
  sums[2]! += entry.inputUncached;
  sums[3]! += entry.cacheRead;
  sums[4]! += entry.cacheWrite;
  sums[5]! += entry.output;
  sums[6]! += entry.reasoning;
  sums[7]! += entry.images;
  sums[8]! += entry.videoSeconds;
  sums[9]! += entry.durationMs;
  sums[latencyOffset + latencyBucket(entry.durationMs)]! += 1;
  row.costNanoUsd += entry.costNanoUsd;
}

function addSums(row: Sums, added: Sums): void {
  for (let index = 0; index < row.sums.length; index++) row.sums[index]! += added.sums[index]!;
  row.costNanoUsd += added.costNanoUsd;
}
