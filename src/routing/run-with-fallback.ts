import { GatewayError, toGatewayError } from '../errors/gateway-error.js';
import type { CatalogRoute } from '../catalog/model-catalog.js';
import type { AbortScope } from '../call/abort-scope.js';

export interface FallbackPolicy {
  /** Attempts on one route before moving to the next. */
  readonly attemptsPerRoute: number;
  /** First backoff; doubles per attempt on the same route. */
  readonly backoffMs: number;
}

export interface AttemptReport {
  readonly route: CatalogRoute;
  readonly attempt: number;
  readonly error: GatewayError;
}

/**
 * Tries each route in order. A retryable failure (connect error, time-out, 429, 5xx) that happens
 * before anything reached the client is retried with backoff, then the next route is tried. A route
 * whose upstream is at its concurrency cap (`upstream_busy`) is skipped at once: its slots free only
 * as calls end. `attempt` must throw before committing a response; once it resolves, the outcome is final.
 */
export async function runWithFallback<Outcome>(
  routes: readonly CatalogRoute[],
  policy: FallbackPolicy,
  signal: AbortScope,
  attempt: (route: CatalogRoute) => Promise<Outcome>,
  onFailure: (report: AttemptReport) => void = () => {},
): Promise<Outcome> {
  let lastError: GatewayError | undefined;
  for (const route of routes) {
    for (let attemptNumber = 1; attemptNumber <= policy.attemptsPerRoute; attemptNumber++) {
      if (signal.aborted) throw new GatewayError('upstream_timeout', 'The client went away.');
      try {
        return await attempt(route);
      } catch (thrown) {
        const error = toGatewayError(thrown);
        if (error.code === 'upstream_busy') {
          // Nothing was sent: not an upstream failure, and no use retrying the same route now.
          lastError = error;
          break;
        }
        onFailure({ route, attempt: attemptNumber, error });
        if (!error.retryable) throw error;
        lastError = error;
        if (attemptNumber < policy.attemptsPerRoute) await sleep(policy.backoffMs * 2 ** (attemptNumber - 1), signal);
      }
    }
  }
  throw lastError ?? new GatewayError('no_route', 'No upstream is configured for this model.');
}

function sleep(milliseconds: number, signal: AbortScope): Promise<void> {
  if (milliseconds <= 0) return Promise.resolve();
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
