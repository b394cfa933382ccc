import type { ForwardedHeaders, UpstreamTarget } from '../provider-adapter.js';

/** The API version sent when the client named none (the only stable Messages version). */
export const defaultAnthropicVersion = '2023-06-01';

/** `${baseUrl}/v1/messages`; a base URL configured with a trailing `/v1` is tolerated. */
export function messagesUrl(target: UpstreamTarget): string {
  const base = target.baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
  return `${base}/v1/messages`;
}

function forwardedValue(forwarded: ForwardedHeaders, name: string): string | undefined {
  for (const [key, value] of Object.entries(forwarded)) if (key.toLowerCase() === name) return value;
  return undefined;
}

/**
 * Auth and protocol headers for an Anthropic upstream. The client's `anthropic-version` and
 * `anthropic-beta` are forwarded because they change the wire format the client expects;
 * operator-configured headers come last so an operator can pin them.
 */
export function anthropicHeaders(target: UpstreamTarget, forwarded: ForwardedHeaders): Record<string, string> {
  const beta = forwardedValue(forwarded, 'anthropic-beta');
  return {
    'content-type': 'application/json',
    ...(target.apiKey === undefined ? {} : { 'x-api-key': target.apiKey }),
    'anthropic-version': forwardedValue(forwarded, 'anthropic-version') ?? defaultAnthropicVersion,
    ...(beta === undefined || beta === '' ? {} : { 'anthropic-beta': beta }),
    ...target.headers,
  };
}
