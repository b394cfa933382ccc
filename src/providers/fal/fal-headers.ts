import type { UpstreamTarget } from '../provider-adapter.js';

/** fal's credential header (`Authorization: Key …`, not Bearer), the operator's headers, and a JSON type for a body. */
export function falHeaders(target: UpstreamTarget, withBody: boolean): Record<string, string> {
  return {
    ...(target.headers ?? {}),
    ...(target.apiKey === undefined ? {} : { authorization: `Key ${target.apiKey}` }),
    ...(withBody ? { 'content-type': 'application/json' } : {}),
  };
}
