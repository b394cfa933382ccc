import type { CircuitBreakerConfig } from '../config/config-schema.js';
import type { CatalogRoute } from '../catalog/model-catalog.js';

export type CircuitState = 'closed' | 'open' | 'half_open';

export const circuitStates: readonly CircuitState[] = ['closed', 'open', 'half_open'];

/** One route's breaker as the admin API and the metrics show it. */
export interface RouteCircuit {
  readonly provider: string;
  readonly upstreamModel: string;
  readonly state: CircuitState;
  readonly consecutiveFailures: number;
  /** When it last opened (undefined while it never did since it last closed). */
  readonly openedAt: Date | undefined;
  /** When an open breaker lets its trial call through. */
  readonly retryAt: Date | undefined;
}

interface Breaker {
  consecutiveFailures: number;
  openedAt: number | undefined;
  /** Half-open with its one trial call running: every other call skips the route. */
  trialRunning: boolean;
}

/**
 * A circuit breaker per route (provider and upstream model), held in this process: every instance
 * learns on its own that a route fails. Routes are keyed by what they call, not by the public
 * model, so two models sharing an upstream model share its breaker; the state outlives reloads.
 */
export class CircuitBreakers {
  private readonly breakers = new Map<string, Breaker>();

  constructor(private readonly now: () => number = Date.now) {}

  /**
   * Whether a call may try the route now. An open breaker past its cool-down turns half-open and
   * admits this call as its trial; the caller must then report the trial's end.
   */
  admit(route: CatalogRoute, config: CircuitBreakerConfig): boolean {
    // Every call asks; while no route has failed there is nothing to look up (no key to build).
    if (!config.enabled || this.breakers.size === 0) return true;
    const breaker = this.breakers.get(keyOf(route));
    if (breaker?.openedAt === undefined) return true;
    if (breaker.trialRunning) return false;
    if (this.now() < breaker.openedAt + config.cooldown_ms) return false;
    breaker.trialRunning = true;
    return true;
  }

  /** The upstream answered (even with a client error): the route works. */
  succeeded(route: CatalogRoute): void {
    if (this.breakers.size > 0) this.breakers.delete(keyOf(route));
  }

  /** The upstream failed (unreachable, timed out, 5xx, broken answer). */
  failed(route: CatalogRoute, config: CircuitBreakerConfig): void {
    if (!config.enabled) return;
    const key = keyOf(route);
    const breaker = this.breakers.get(key) ?? { consecutiveFailures: 0, openedAt: undefined, trialRunning: false };
    breaker.consecutiveFailures++;
    if (breaker.trialRunning || breaker.consecutiveFailures >= config.consecutive_failures) breaker.openedAt = this.now();
    breaker.trialRunning = false;
    this.breakers.set(key, breaker);
  }

  /** An attempt that ended without telling anything about the route (the client went away). */
  released(route: CatalogRoute): void {
    const breaker = this.breakers.get(keyOf(route));
    if (breaker !== undefined) breaker.trialRunning = false;
  }

  /** Seconds until the first of `routes` lets a call through again, for `retry-after`. */
  secondsUntilRetry(routes: readonly CatalogRoute[], config: CircuitBreakerConfig): number {
    let soonest = Number.POSITIVE_INFINITY;
    for (const route of routes) {
      const openedAt = this.breakers.get(keyOf(route))?.openedAt;
      soonest = Math.min(soonest, openedAt === undefined ? 0 : openedAt + config.cooldown_ms - this.now());
    }
    return Math.max(1, Math.ceil(soonest / 1000));
  }

  /** The state of each of `routes` (each distinct route once). */
  describe(routes: readonly CatalogRoute[], config: CircuitBreakerConfig): RouteCircuit[] {
    const seen = new Set<string>();
    const described: RouteCircuit[] = [];
    for (const route of routes) {
      const key = keyOf(route);
      if (seen.has(key)) continue;
      seen.add(key);
      const breaker = this.breakers.get(key);
      const openedAt = breaker?.openedAt;
      const retryAt = openedAt === undefined ? undefined : openedAt + config.cooldown_ms;
      const state: CircuitState = openedAt === undefined ? 'closed' : breaker?.trialRunning === true || this.now() >= (retryAt ?? 0) ? 'half_open' : 'open';
      described.push({
        provider: route.target.providerName,
        upstreamModel: route.target.model,
        state,
        consecutiveFailures: breaker?.consecutiveFailures ?? 0,
        openedAt: openedAt === undefined ? undefined : new Date(openedAt),
        retryAt: retryAt === undefined ? undefined : new Date(retryAt),
      });
    }
    return described;
  }
}

function keyOf(route: CatalogRoute): string {
  return `${route.target.providerName}\u0000${route.target.model}`;
}
