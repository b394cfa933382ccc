import { GatewayError, toGatewayError } from '../errors/gateway-error.js';
import type { CatalogRoute } from '../catalog/model-catalog.js';
import type { AbortScope } from '../call/abort-scope.js';
import type { CircuitBreakerConfig } from '../config/config-schema.js';
import type { Admission, CircuitBreakers } from './circuit-breaker.js';

export interface FallbackPolicy {
  /** Attempts on one route before moving to the next. */
  readonly attemptsPerRoute: number;
  /** First backoff; doubles per attempt on the same route. */
  readonly backoffMs: number;
  /**
   * An upstream's `retry-after` up to this long is waited out before the next attempt on the same
   * route; a longer one moves on to the next route at once (and, if none is left, reaches the client).
   * Without it, `retry-after` is ignored and the backoff applies.
   */
  readonly maxRetryAfterMs?: number;
  /**
   * Routes whose breaker is open are skipped; every attempt's end is reported to it, with the
   * caller (a key id, or one name for keyless calls) whose call it was.
   */
  readonly breakers?: { readonly state: CircuitBreakers; readonly config: CircuitBreakerConfig; readonly caller: string };
}

export interface AttemptReport {
  readonly route: CatalogRoute;
  readonly attempt: number;
  readonly error: GatewayError;
}

/**
 * Tries each route in order. A retryable failure (connect error, time-out, 429, 5xx) that happens
 * before anything reached the client is retried with backoff — or after the upstream's
 * `retry-after`, when that is short enough — then the next route is tried. A route whose circuit
 * breaker is open is skipped, and when every route's is, the call fails at once with 503
 * `circuit_open`. A route whose upstream is at its concurrency cap (`upstream_busy`) is skipped
 * at once too: its slots free only as calls end.
 * `attempt` must throw before committing a response; once it resolves, the outcome is final.
 */
export async function runWithFallback<Outcome>(
  routes: readonly CatalogRoute[],
  policy: FallbackPolicy,
  signal: AbortScope,
  attempt: (route: CatalogRoute) => Promise<Outcome>,
  onFailure: (report: AttemptReport) => void = () => {},
): Promise<Outcome> {
  let lastError: GatewayError | undefined;
  const breakers = policy.breakers;
  for (const route of routes) {
    for (let attemptNumber = 1; attemptNumber <= policy.attemptsPerRoute; attemptNumber++) {
      if (signal.aborted) throw new GatewayError('upstream_timeout', 'The client went away.');
      const admission = breakers?.state.admit(route, breakers.config, breakers.caller);
      if (breakers !== undefined && admission === undefined) break;
      let outcome: Outcome;
      try {
        outcome = await attempt(route);
      } catch (thrown) {
        const error = toGatewayError(thrown);
        if (error.code === 'upstream_busy') {
          // Nothing was sent: not an upstream failure, and no use retrying the same route now.
          if (admission !== undefined) breakers?.state.released(route, admission);
          lastError = error;
          break;
        }
        if (breakers !== undefined && admission !== undefined) noteFailure(breakers, route, admission, error, signal);
        onFailure({ route, attempt: attemptNumber, error });
        if (!error.retryable) throw error;
        lastError = error;
        if (attemptNumber === policy.attemptsPerRoute) continue;
        const retryAfterMs = error.retryAfterSeconds === undefined || policy.maxRetryAfterMs === undefined ? undefined : error.retryAfterSeconds * 1000;
        if (retryAfterMs === undefined) await sleep(policy.backoffMs * 2 ** (attemptNumber - 1), signal);
        else if (retryAfterMs <= (policy.maxRetryAfterMs ?? 0)) await sleep(retryAfterMs, signal);
        else break;
        continue;
      }
      breakers?.state.succeeded(route);
      return outcome;
    }
  }
  if (lastError !== undefined) throw lastError;
  if (breakers !== undefined && routes.length > 0) {
    const seconds = breakers.state.secondsUntilRetry(routes, breakers.config);
    throw new GatewayError('circuit_open', `Every upstream of this model is failing; it is tried again in ${seconds} s.`, { retryAfterSeconds: seconds });
  }
  throw new GatewayError('no_route', 'No upstream is configured for this model.');
}

/**
 * Whether a failed attempt says the route is unwell: it could not be reached, or the provider
 * answered 5xx or 429 (or refused the gateway's own credential). A client error the request caused
 * says the upstream works. A time-out, an answer too large or one that cannot be read may be the
 * request's own doing (a long generation, a huge answer asked for), and a client that went away
 * says nothing: those leave the breaker as it was.
 */
function noteFailure(breakers: NonNullable<FallbackPolicy['breakers']>, route: CatalogRoute, admission: Admission, error: GatewayError, signal: AbortScope): void {
  if (signal.aborted) breakers.state.released(route, admission);
  else if (saysUpstreamUnwell(error)) breakers.state.failed(route, breakers.config, admission);
  else if (error.upstreamStatus !== undefined) breakers.state.succeeded(route);
  else breakers.state.released(route, admission);
}

function saysUpstreamUnwell(error: GatewayError): boolean {
  if (error.code === 'upstream_connect_failed') return true;
  const status = error.upstreamStatus;
  return status !== undefined && (status >= 500 || status === 429 || status === 401 || status === 403);
}

/** Waits, or less when the client goes away (at once when it already has: nothing is left to wait for). */
function sleep(milliseconds: number, signal: AbortScope): Promise<void> {
  if (milliseconds <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, milliseconds);
    const stopListening = signal.onAbort(done);
    function done(): void {
      clearTimeout(timer);
      stopListening();
      resolve();
    }
  });
}
