import type { FormatName } from '../ir/format-name.js';
import type { CallLimits } from '../governance/key-limits.js';

/**
 * Adds the key's rate-limit headers to an answer of the framework-served endpoints (docs/api.md,
 * "Rate-limit headers").
 */
export function withLimitHeaders(response: Response, limits: CallLimits | undefined, format?: FormatName): Response {
  if (limits === undefined) return response;
  for (const [name, value] of Object.entries(limits.headers(format))) response.headers.set(name, value);
  return response;
}
