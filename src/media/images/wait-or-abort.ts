import type { AbortScope } from '../../call/abort-scope.js';
import { GatewayError } from '../../errors/gateway-error.js';

/**
 * Waits `ms` between polls of an upstream job; a client that leaves (or a shutdown) ends the wait at
 * once with the error an aborted upstream call gets, so polling stops and nothing more is sent.
 */
export function waitOrAbort(ms: number, scope: AbortScope): Promise<void> {
  return new Promise((resolve, reject) => {
    const aborted = (): GatewayError => new GatewayError('upstream_timeout', 'The request was cancelled before the upstream answered.', scope.reason === undefined ? {} : { cause: scope.reason });
    if (scope.aborted) {
      reject(aborted());
      return;
    }
    const unregister = scope.onAbort(() => {
      clearTimeout(timer);
      reject(aborted());
    });
    const timer = setTimeout(() => {
      unregister();
      resolve();
    }, ms);
  });
}
