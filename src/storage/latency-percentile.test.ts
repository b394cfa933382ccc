import { describe, expect, it } from 'vitest';
import { latencyPercentileMs } from './latency-percentile.js';
import { latencyBucket, latencyBucketBoundsMs } from './ledger-increments.js';

function histogramOf(durations: readonly number[]): number[] {
  const histogram = new Array<number>(latencyBucketBoundsMs.length + 1).fill(0);
  for (const duration of durations) histogram[latencyBucket(duration)] = (histogram[latencyBucket(duration)] ?? 0) + 1;
  return histogram;
}

describe('latency percentiles from a rollup histogram', () => {
  it('answers nothing for an empty histogram', () => {
    expect(latencyPercentileMs(histogramOf([]), 0.5)).toBeUndefined();
  });

  it('interpolates inside the bucket holding the rank', () => {
    // Four calls in (100, 250]: the median's rank 2 of 4 is halfway through that bucket.
    expect(latencyPercentileMs(histogramOf([120, 130, 140, 150]), 0.5)).toBe(175);
    // One call in [0, 50]: any percentile is a fraction of the way to 50.
    expect(latencyPercentileMs(histogramOf([10]), 0.5)).toBe(25);
    expect(latencyPercentileMs(histogramOf([10]), 0.95)).toBe(48);
  });

  it('moves to a slower bucket once the rank passes the faster ones', () => {
    const durations = [...Array.from({ length: 90 }, () => 40), ...Array.from({ length: 10 }, () => 900)];
    expect(latencyPercentileMs(histogramOf(durations), 0.5)).toBeLessThanOrEqual(50);
    // Rank 95 is the 5th of 10 calls in (500, 1000]: 750.
    expect(latencyPercentileMs(histogramOf(durations), 0.95)).toBe(750);
  });

  it('answers the highest finite bound for a rank in the open bucket', () => {
    expect(latencyPercentileMs(histogramOf([500_000, 600_000]), 0.5)).toBe(120_000);
  });
});
