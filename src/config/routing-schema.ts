import { z } from 'zod';
import { numeric } from './model-record-schema.js';

/**
 * A route that keeps failing is skipped for a while instead of costing every call a time-out:
 * after `consecutive_failures` upstream failures in a row it opens for `cooldown_ms`, then lets one
 * trial call through (half-open); the trial's success closes it, its failure opens it again.
 */
const circuitBreakerSchema = z
  .object({
    enabled: z.boolean().default(true),
    consecutive_failures: numeric(z.number().int().min(1)).default(5),
    cooldown_ms: numeric(z.number().int().min(1)).default(30_000),
  })
  .strict()
  .default({ enabled: true, consecutive_failures: 5, cooldown_ms: 30_000 });

/** How calls are retried, timed out and bounded across a model's routes (reloaded with the catalog). */
export const routingSchema = z
  .object({
    /** Attempts per route on a retryable failure before falling back to the next route. */
    attempts_per_route: numeric(z.number().int().min(1).max(10)).default(2),
    backoff_ms: numeric(z.number().int().min(0)).default(100),
    /** Time allowed until the upstream's answer starts (its response headers); a route's `timeout_ms` overrides it. */
    timeout_ms: numeric(z.number().int().positive()).default(60_000),
    /** Longest silence allowed inside an answer once it started (a stalled stream); `timeout_ms` when absent. */
    idle_timeout_ms: numeric(z.number().int().positive()).optional(),
    /** An upstream's `retry-after` up to this long is waited out before retrying the same route; a longer one falls back at once. */
    max_retry_after_ms: numeric(z.number().int().min(0)).default(2_000),
    /** Largest upstream answer read (a whole body, or a stream's total): beyond it the call fails with 502 instead of exhausting memory. */
    max_answer_bytes: numeric(z.number().int().positive()).default(64 * 1024 * 1024),
    /**
     * A client that leaves a stream it has received part of is charged for it: the upstream is read
     * on for this long for the usage it reports at its end, then stopped (0: stopped at once).
     */
    usage_wait_after_disconnect_ms: numeric(z.number().int().min(0).max(60_000)).default(2_000),
    circuit_breaker: circuitBreakerSchema,
  })
  .strict()
  .default({
    attempts_per_route: 2,
    backoff_ms: 100,
    timeout_ms: 60_000,
    max_retry_after_ms: 2_000,
    max_answer_bytes: 64 * 1024 * 1024,
    usage_wait_after_disconnect_ms: 2_000,
    circuit_breaker: { enabled: true, consecutive_failures: 5, cooldown_ms: 30_000 },
  });
