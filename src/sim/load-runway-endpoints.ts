import type * as RunwayEndpoint from './runway/runway-endpoint.js';

let loading: Promise<typeof RunwayEndpoint> | undefined;

/** Runway's task API, loaded on the first request for it: a simulator serving only text never needs it. */
export function loadRunwayEndpoints(): Promise<typeof RunwayEndpoint> {
  loading ??= import('./runway/runway-endpoint.js');
  return loading;
}
