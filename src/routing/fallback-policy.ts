import type { RoutingSettings } from '../catalog/catalog-snapshot.js';
import type { CircuitBreakers } from './circuit-breaker.js';
import type { FallbackPolicy } from './run-with-fallback.js';

/** The retry, retry-after and circuit-breaker rules of a routing snapshot, as every endpoint applies them. */
export function fallbackPolicy(routing: RoutingSettings, breakers: CircuitBreakers): FallbackPolicy {
  return {
    attemptsPerRoute: routing.attempts_per_route,
    backoffMs: routing.backoff_ms,
    maxRetryAfterMs: routing.max_retry_after_ms,
    breakers: { state: breakers, config: routing.circuit_breaker },
  };
}
