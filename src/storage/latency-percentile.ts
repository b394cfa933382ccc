import { latencyBucketBoundsMs } from './ledger-increments.js';

/**
 * A latency percentile (0 < `fraction` < 1) from a rollup histogram (`latencyBucketBoundsMs`, then
 * the open bucket), interpolated linearly inside the bucket that holds it, as Prometheus's
 * `histogram_quantile` does: the rank is `fraction × calls`, the first bucket starts at 0 ms, and a
 * rank in the open bucket answers the highest finite bound (nothing is known above it). The answer
 * is whole milliseconds; undefined when the histogram holds no calls.
 */
export function latencyPercentileMs(histogram: readonly number[], fraction: number): number | undefined {
  const total = histogram.reduce((sum, count) => sum + count, 0);
  if (total === 0) return undefined;
  const rank = fraction * total;
  let before = 0;
  for (let index = 0; index < histogram.length; index++) {
    const count = histogram[index] ?? 0;
    if (count > 0 && before + count >= rank) {
      const upper = latencyBucketBoundsMs[index];
      const highest = latencyBucketBoundsMs[latencyBucketBoundsMs.length - 1] as number;
      if (upper === undefined) return highest;
      const lower = index === 0 ? 0 : (latencyBucketBoundsMs[index - 1] as number);
      return Math.round(lower + ((upper - lower) * (rank - before)) / count);
    }
    before += count;
  }
  return latencyBucketBoundsMs[latencyBucketBoundsMs.length - 1];
}
