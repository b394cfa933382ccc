import type { UpstreamTarget } from '../../provider-adapter.js';

/** The credential and the operator's headers, without a content type: GETs and DELETEs carry no body. */
export function openAIJobHeaders(target: UpstreamTarget): Record<string, string> {
  return { ...(target.apiKey ? { authorization: `Bearer ${target.apiKey}` } : {}), ...target.headers };
}
