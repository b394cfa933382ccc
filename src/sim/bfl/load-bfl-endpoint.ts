import type * as BflEndpoint from './bfl-endpoint.js';

let loading: Promise<typeof BflEndpoint> | undefined;

/** BFL's endpoints, loaded on the first request for one: a simulator that never plays BFL never reads them. */
export function loadBflEndpoint(): Promise<typeof BflEndpoint> {
  loading ??= import('./bfl-endpoint.js');
  return loading;
}
