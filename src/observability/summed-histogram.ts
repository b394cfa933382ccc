import type { Histogram, Metric } from 'prom-client';

/** One label set's histogram: calls per bucket (not cumulative, the last past every bound), their sum and count. */
export interface HistogramSums {
  readonly labels: Readonly<Record<string, string>>;
  readonly buckets: readonly number[];
  readonly sum: number;
  readonly count: number;
}

interface ExposedValue {
  readonly labels: Record<string, string | number>;
  readonly sharedLabels: Readonly<Record<string, string>>;
  readonly value: number;
  readonly metricName: string;
  readonly exemplar: null;
}

/**
 * A Prometheus histogram whose series are read, when scraped, from sums kept elsewhere. prom-client's
 * own Histogram can only be told one observation at a time, which costs a label hash per call; this
 * one hands the registry the very values (bucket, `+Inf`, `_sum`, `_count` samples in that order)
 * prom-client's Histogram would, so the exposition reads the same.
 */
export class SummedHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly bounds: readonly number[],
    private readonly read: () => Iterable<HistogramSums>,
  ) {}

  /** Adds it to `registry`: the registry reads any object with prom-client's `get`, typed or not. */
  asMetric(): Metric {
    // The registry calls only name, type, get, getForPromString and reset, all of which this has.
    return this as unknown as Histogram;
  }

  /** The values with the bucket bound among the series' labels, as prom-client's `get()` gives them. */
  async get() {
    const exposed = this.exposed();
    return { ...exposed, values: exposed.values.map((value) => ({ value: value.value, metricName: value.metricName, exemplar: value.exemplar, labels: { ...value.labels, ...value.sharedLabels } })) };
  }

  /** What the registry formats for the text exposition. */
  async getForPromString() {
    return this.exposed();
  }

  /** Nothing of its own to reset: the sums belong to whoever keeps them. */
  reset(): void {}

  private exposed() {
    const values: ExposedValue[] = [];
    const bucketName = `${this.name}_bucket`;
    for (const series of this.read()) {
      let cumulative = 0;
      this.bounds.forEach((bound, index) => {
        cumulative += series.buckets[index] ?? 0;
        values.push({ labels: { le: bound }, sharedLabels: series.labels, value: cumulative, metricName: bucketName, exemplar: null });
      });
      values.push(
        { labels: { le: '+Inf' }, sharedLabels: series.labels, value: series.count, metricName: bucketName, exemplar: null },
        { labels: {}, sharedLabels: series.labels, value: series.sum, metricName: `${this.name}_sum`, exemplar: null },
        { labels: {}, sharedLabels: series.labels, value: series.count, metricName: `${this.name}_count`, exemplar: null },
      );
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }
}
