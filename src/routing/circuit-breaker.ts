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
  /** The caller of the first failure in the current run of failures. */
  firstCaller: string | undefined;
  /** Whether the current run of failures came from more than one caller. */
  severalCallers: boolean;
  openedAt: number | undefined;
  /** Half-open with its one trial call running: every other call skips the route. */
  trialRunning: boolean;
}

/**
 * Who may call the gateway, as far as the breakers need to know: whether more than one caller
 * (API key, or keyless calls counted as one caller) can reach it. Answered from a cache when it
 * can be, else by a promise (a look at the key store).
 */
export interface CallerPopulation {
  severalCallers(): boolean | Promise<boolean>;
}

/** A gateway with a single caller: its failures alone may open a breaker. */
export const singleCaller: CallerPopulation = { severalCallers: () => false };

/**
 * A circuit breaker per route (provider and upstream model), held in this process: every instance
 * learns on its own that a route fails. Routes are keyed by what they call, not by the public
 * model, so two models sharing an upstream model share its breaker; the state outlives reloads.
 *
 * One caller must not be able to shut a route for everyone else: while several callers can reach
 * the gateway, a run of failures opens the breaker only when it came from at least two of them
 * (so one key whose requests make the upstream fail never opens it alone). With a single caller
 * (one active key, or open access with no key), its own failures are all there is to go by.
 */
export class CircuitBreakers {
  private readonly breakers = new Map<string, Breaker>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly population: CallerPopulation = singleCaller,
  ) {}

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

  /**
   * The upstream failed in a way that says it is unwell (unreachable, 5xx, 429), on a call made by
   * `caller` (a key id, or one name for every keyless call).
   */
  failed(route: CatalogRoute, config: CircuitBreakerConfig, caller: string): void {
    if (!config.enabled) return;
    const key = keyOf(route);
    const breaker = this.breakers.get(key) ?? { consecutiveFailures: 0, firstCaller: undefined, severalCallers: false, openedAt: undefined, trialRunning: false };
    this.breakers.set(key, breaker);
    breaker.consecutiveFailures++;
    if (breaker.firstCaller === undefined) breaker.firstCaller = caller;
    else if (breaker.firstCaller !== caller) breaker.severalCallers = true;
    // A failed trial reopens at once: the route was already found failing by several callers.
    const trial = breaker.trialRunning;
    breaker.trialRunning = false;
    if (trial || breaker.openedAt !== undefined) {
      breaker.openedAt = this.now();
      return;
    }
    if (breaker.consecutiveFailures < config.consecutive_failures) return;
    if (breaker.severalCallers) {
      breaker.openedAt = this.now();
      return;
    }
    const several = this.population.severalCallers();
    if (several === false) breaker.openedAt = this.now();
    else if (several !== true) void several.then((answer) => this.openForSingleCaller(key, breaker, answer), () => {});
  }

  /**
   * The store said who may call after a run of one caller's failures: with no one else to shut
   * out, the run opens the breaker, unless the route has recovered (or opened) in the meantime.
   */
  private openForSingleCaller(key: string, breaker: Breaker, severalCallers: boolean): void {
    if (severalCallers || this.breakers.get(key) !== breaker || breaker.openedAt !== undefined) return;
    breaker.openedAt = this.now();
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
