import type { LedgerEntry } from '../metering/ledger-entry.js';
import type { BoundedLabelValues } from './bounded-label-values.js';
import { latencyBucketsSeconds } from './latency-buckets.js';
import { statusClass, type StatusClass } from './status-class.js';

/** The kinds of the disjoint token buckets of a ledger entry, as label values, with the entry field each counts. */
export const tokenKinds = [
  ['input_uncached', 'inputUncached'],
  ['cache_read', 'cacheRead'],
  ['cache_write', 'cacheWrite'],
  ['output', 'output'],
  ['reasoning', 'reasoning'],
] as const satisfies readonly (readonly [string, keyof LedgerEntry])[];

/**
 * What the ledger entries of one model, provider, endpoint family and status class add up to since
 * the gateway started: the finest label set of any metric fed from the ledger, so each of those
 * metrics is a sum over these series.
 */
export interface LedgerSeries {
  readonly model: string;
  readonly provider: string;
  readonly endpoint: string;
  readonly statusClass: StatusClass;
  requests: number;
  /** Calls per latency bucket of `latencyBucketsSeconds` (not cumulative), then those above the last bound. */
  readonly latencyBuckets: number[];
  /** Summed whole, so the histogram's sum is the exact total divided once. */
  durationMs: number;
  /** Tokens per kind, in the order of `tokenKinds`. */
  readonly tokens: number[];
  costNanoUsd: bigint;
  images: number;
  videoSeconds: number;
}

/**
 * Sums ledger entries into their series as they are recorded. An entry costs a few additions — its
 * series is nearly always the previous entry's, found without a lookup — and the Prometheus metrics
 * are set from the sums when scraped, not updated label set by label set on every call. Label values
 * are capped here (BoundedLabelValues), so the series, like the metrics, stop growing.
 */
export class LedgerSeriesSums {
  private readonly byLabels = new Map<string, LedgerSeries>();
  /** The series of the last entry and the values it was found by (before capping). */
  private last: { model: string; provider: string; endpoint: string; series: LedgerSeries } | undefined;

  /** The caps are shared with the gateway's other metrics of the same labels: one cap a label. */
  constructor(
    private readonly models: BoundedLabelValues,
    private readonly providers: BoundedLabelValues,
    private readonly endpoints: BoundedLabelValues,
  ) {}

  add(entry: LedgerEntry): void {
    const last = this.last;
    const series =
      last !== undefined && last.model === entry.model && last.provider === entry.provider && last.endpoint === entry.endpoint && last.series.statusClass === statusClass(entry.status)
        ? last.series
        : this.seriesOf(entry);
    series.requests += 1;
    const durationMs = Math.max(0, entry.durationMs);
    series.latencyBuckets[latencyBucketOf(durationMs / 1000)]! += 1;
    series.durationMs += durationMs;
    const tokens = series.tokens;
    tokens[0]! += entry.inputUncached;
    tokens[1]! += entry.cacheRead;
    tokens[2]! += entry.cacheWrite;
    tokens[3]! += entry.output;
    tokens[4]! += entry.reasoning;
    series.costNanoUsd += entry.costNanoUsd;
    series.images += entry.images;
    series.videoSeconds += entry.videoSeconds;
  }

  /** Every series, in the order their first entries came. */
  series(): IterableIterator<LedgerSeries> {
    return this.byLabels.values();
  }

  private seriesOf(entry: LedgerEntry): LedgerSeries {
    const model = this.models.value(entry.model);
    const provider = this.providers.value(entry.provider);
    const endpoint = this.endpoints.value(entry.endpoint);
    const status = statusClass(entry.status);
    const id = `${model}\u0000${provider}\u0000${endpoint}\u0000${status}`;
    let series = this.byLabels.get(id);
    if (series === undefined) {
      series = {
        model,
        provider,
        endpoint,
        statusClass: status,
        requests: 0,
        latencyBuckets: new Array<number>(latencyBucketsSeconds.length + 1).fill(0),
        durationMs: 0,
        tokens: new Array<number>(tokenKinds.length).fill(0),
        costNanoUsd: 0n,
        images: 0,
        videoSeconds: 0,
      };
      this.byLabels.set(id, series);
    }
    this.last = { model: entry.model, provider: entry.provider, endpoint: entry.endpoint, series };
    return series;
  }
}

/** The histogram bucket of a value in seconds, as prom-client places it: the first bound not below it. */
function latencyBucketOf(seconds: number): number {
  for (let index = 0; index < latencyBucketsSeconds.length; index++) {
    if (seconds <= latencyBucketsSeconds[index]!) return index;
  }
  return latencyBucketsSeconds.length;
}
