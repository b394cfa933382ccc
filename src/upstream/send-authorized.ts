import type { AuthorizationHeaders, ProviderAdapter, UpstreamTarget } from '../providers/provider-adapter.js';
import { sendUpstream, type UpstreamCall, type UpstreamResponse } from './upstream-client.js';

/**
 * Sends one upstream call after the adapter's authorization step, the one place every capability's
 * call passes through. Kinds without the step are sent as they are; a step that answers at once (a
 * cached token) adds no turn of the event loop, and only one that must wait is awaited.
 */
export function sendAuthorized(adapter: Pick<ProviderAdapter, 'authorize'>, target: UpstreamTarget, call: UpstreamCall): Promise<UpstreamResponse> {
  if (adapter.authorize === undefined) return sendUpstream(call);
  const headers = adapter.authorize({ method: call.method ?? 'POST', url: call.url, headers: call.headers, body: call.body }, target);
  if (headers instanceof Promise) return headers.then((added) => sendUpstream(withHeaders(call, added)));
  return sendUpstream(withHeaders(call, headers));
}

function withHeaders(call: UpstreamCall, added: AuthorizationHeaders): UpstreamCall {
  return { ...call, headers: { ...call.headers, ...added } };
}
