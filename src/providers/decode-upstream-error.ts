import type { GatewayError } from '../errors/gateway-error.js';
import type { ProviderAdapter, UpstreamTarget } from './provider-adapter.js';
import { scrubUpstreamError } from './scrub-upstream-error.js';

/**
 * An upstream's error answer as the GatewayError clients and logs see: decoded by the upstream's
 * adapter, then without the target's credential, host or other addresses (see scrubUpstreamError).
 * Every upstream error answer is read through this, never through the adapter's decoder alone; a
 * 401 also tells the adapter that the credential the call bore was refused.
 */
export function decodeUpstreamError(
  adapter: Pick<ProviderAdapter, 'decodeError' | 'forgetAuthorization'>,
  target: UpstreamTarget,
  status: number,
  bodyText: string,
  headers: Readonly<Record<string, string>>,
): GatewayError {
  if (status === 401) adapter.forgetAuthorization?.(target);
  return scrubUpstreamError(adapter.decodeError(status, bodyText, headers), target);
}
