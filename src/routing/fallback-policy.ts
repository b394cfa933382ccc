import { keylessCaller } from '../keys/keyless-caller.js';
import type { RoutingSettings } from '../catalog/catalog-snapshot.js';
import type { CircuitBreakers } from './circuit-breaker.js';
import type { FallbackPolicy } from './run-with-fallback.js';

/**
 * The retry, retry-after and circuit-breaker rules of a routing snapshot, as every endpoint applies
 * them, for a call made with the key `keyId` (undefined for a keyless call).
 */
export function fallbackPolicy(routing: RoutingSettings, breakers: CircuitBreakers, keyId: string | undefined): FallbackPolicy {
  return {
    attemptsPerRoute: routing.attempts_per_route,
    backoffMs: routing.backoff_ms,
    maxRetryAfterMs: routing.max_retry_after_ms,
    breakers: { state: breakers, config: routing.circuit_breaker, caller: keyId ?? keylessCaller },
  };
}
