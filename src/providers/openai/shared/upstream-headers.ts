import type { UpstreamTarget } from '../../provider-adapter.js';

/** JSON content type, bearer credential when configured, then the operator's own headers. */
export function openAIUpstreamHeaders(target: UpstreamTarget): Record<string, string> {
  return {
    'content-type': 'application/json',
    ...(target.apiKey ? { authorization: `Bearer ${target.apiKey}` } : {}),
    ...target.headers,
  };
}
