import type { CircuitBreakerConfig } from '../config/config-schema.js';
import type { CatalogRoute } from '../catalog/model-catalog.js';
import { keylessCaller } from '../keys/keyless-caller.js';

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
  /** Failures in a row, whoever met them (as shown). */
  consecutiveFailures: number;
  /** Each caller's failures in the current run. */
  failuresByCaller: Map<string, number>;
  openedAt: number | undefined;
  /** Half-open with its one trial call running: every other call skips the route. */
  trialRunning: boolean;
  /** Callers whose trial failed since the breaker last opened: the next trial goes to someone else. */
  failedTrialCallers: Set<string>;
}

/** A call let through a route's breaker, handed back when it ends. */
export interface Admission {
  /** A key id, or one name for every keyless call. */
  readonly caller: string;
  /** Whether it is the one trial of a half-open breaker. */
  readonly trial: boolean;
}

/**
 * Who may call the gateway, as far as the breakers need to know: whether a caller other than
 * `caller` can reach it (an active key; keyless calls do not count beside a key, since its holder
 * can make them too). Answered from a cache when it can be, else by a promise (a look at the key
 * store).
 */
export interface CallerPopulation {
  othersBesides(caller: string): boolean | Promise<boolean>;
}

/** A gateway with a single caller: its failures alone may open a breaker. */
export const singleCaller: CallerPopulation = { othersBesides: () => false };

/**
 * A circuit breaker per route (provider and upstream model), held in this process: every instance
 * learns on its own that a route fails. Routes are keyed by what they call, not by the public
 * model, so two models sharing an upstream model share its breaker; the state outlives reloads.
 *
 * One caller must not be able to shut a route for everyone else, since the upstream may fail only
 * for what that caller sends:
 * - a run of failures opens the breaker when they came from at least two keys, each counting for
 *   at most half of `consecutive_failures` (rounded up): no key makes up the run alone, or by
 *   adding a few failures of an accomplice. Keyless calls are not counted beside keys: anyone
 *   may make them, a key's holder included.
 * - a caller with no one else to shut out (the only active key, or keyless calls while no key
 *   exists) opens it with `consecutive_failures` failures of its own.
 * - after the cool-down one trial call is let through; its success closes the breaker. Its
 *   failure shuts the route for another cool-down only when a trial of another key failed too
 *   since it opened, or when no one else can call; otherwise the breaker stays half-open and that
 *   caller gets no further trial until it reopens or closes, so one key cannot hold it shut by
 *   taking every trial.
 * - a call that was already under way when the breaker opened tells nothing new when it fails,
 *   and leaves the cool-down as it was.
 */
export class CircuitBreakers {
  private readonly breakers = new Map<string, Breaker>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly population: CallerPopulation = singleCaller,
  ) {}

  /**
   * Whether `caller` may try the route now: an admission, or undefined to skip the route. An open
   * breaker past its cool-down turns half-open and admits this call as its trial; every admission
   * must then be handed back with the call's end (`succeeded`, `failed` or `released`).
   */
  admit(route: CatalogRoute, config: CircuitBreakerConfig, caller: string): Admission | undefined {
    // Every call asks; while no route has failed there is nothing to look up (no key to build).
    if (!config.enabled || this.breakers.size === 0) return { caller, trial: false };
    const breaker = this.breakers.get(keyOf(route));
    if (breaker?.openedAt === undefined) return { caller, trial: false };
    if (breaker.trialRunning || this.now() < breaker.openedAt + config.cooldown_ms || breaker.failedTrialCallers.has(caller)) return undefined;
    breaker.trialRunning = true;
    return { caller, trial: true };
  }

  /** The upstream answered (even with a client error): the route works. */
  succeeded(route: CatalogRoute): void {
    if (this.breakers.size > 0) this.breakers.delete(keyOf(route));
  }

  /**
   * The upstream failed in a way that says it is unwell: unreachable, 5xx, 429, or the gateway's
   * own credential refused (401, 403).
   */
  failed(route: CatalogRoute, config: CircuitBreakerConfig, admission: Admission): void {
    if (!config.enabled) return;
    const key = keyOf(route);
    const breaker = this.breakers.get(key) ?? { consecutiveFailures: 0, failuresByCaller: new Map(), openedAt: undefined, trialRunning: false, failedTrialCallers: new Set() };
    this.breakers.set(key, breaker);
    if (breaker.openedAt !== undefined) {
      if (admission.trial) this.trialFailed(key, breaker, admission.caller);
      return;
    }
    breaker.consecutiveFailures++;
    const own = (breaker.failuresByCaller.get(admission.caller) ?? 0) + 1;
    breaker.failuresByCaller.set(admission.caller, own);
    if (failedForSeveralKeys(breaker.failuresByCaller, config.consecutive_failures)) {
      this.open(breaker);
      return;
    }
    if (own < config.consecutive_failures) return;
    this.openIfAlone(key, breaker, admission.caller, undefined);
  }

  /** A trial failed: the route is shut again if another key's trial failed too, or if no one else can call. */
  private trialFailed(key: string, breaker: Breaker, caller: string): void {
    breaker.trialRunning = false;
    breaker.consecutiveFailures++;
    breaker.failedTrialCallers.add(caller);
    if (keysAmong(breaker.failedTrialCallers) >= 2) this.open(breaker);
    else this.openIfAlone(key, breaker, caller, breaker.openedAt);
  }

  /**
   * Opens the breaker on `caller`'s failures once the store says no one else can call, unless the
   * route has recovered, or opened (again) since `openedAt`, in the meantime.
   */
  private openIfAlone(key: string, breaker: Breaker, caller: string, openedAt: number | undefined): void {
    const others = this.population.othersBesides(caller);
    const openUnlessOthers = (othersCall: boolean): void => {
      if (!othersCall && this.breakers.get(key) === breaker && breaker.openedAt === openedAt) this.open(breaker);
    };
    if (typeof others === 'boolean') openUnlessOthers(others);
    else void others.then(openUnlessOthers, () => {});
  }

  private open(breaker: Breaker): void {
    breaker.openedAt = this.now();
    breaker.failedTrialCallers.clear();
  }

  /** An attempt that ended without telling anything about the route (the client went away). */
  released(route: CatalogRoute, admission: Admission): void {
    const breaker = this.breakers.get(keyOf(route));
    if (breaker !== undefined && admission.trial) breaker.trialRunning = false;
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

/**
 * Whether a run of failures came from at least two keys and reaches `threshold` with each key
 * counted for at most half of it (rounded up). Keyless failures do not count: anyone may make them.
 */
function failedForSeveralKeys(failuresByCaller: ReadonlyMap<string, number>, threshold: number): boolean {
  const share = Math.ceil(threshold / 2);
  let keys = 0;
  let counted = 0;
  for (const [caller, failures] of failuresByCaller) {
    if (caller === keylessCaller) continue;
    keys++;
    counted += Math.min(failures, share);
  }
  return keys >= 2 && counted >= threshold;
}

function keysAmong(callers: ReadonlySet<string>): number {
  return [...callers].filter((caller) => caller !== keylessCaller).length;
}
