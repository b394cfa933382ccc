/**
 * Latency histogram bounds in seconds. Generation calls run from a cached short answer (tens of
 * milliseconds) to long reasoning or image calls (minutes), so the buckets span 50 ms to 300 s.
 */
export const latencyBucketsSeconds: readonly number[] = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 120, 300];
