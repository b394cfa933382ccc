import type { UpstreamTarget } from '../provider-adapter.js';

/**
 * The API version every call names. Runway refuses a call without it, and a newer version may
 * change request shapes, so the gateway sends the one its bodies are written for (the SDK's default).
 */
export const runwayApiVersion = '2024-11-06';

/** The key as a bearer token, the API version, and the operator's own headers. */
export function runwayHeaders(target: UpstreamTarget): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'x-runway-version': runwayApiVersion };
  if (target.apiKey) headers.authorization = `Bearer ${target.apiKey}`;
  return { ...headers, ...target.headers };
}

/** A GET or DELETE carries no body: the credential and version only. */
export function runwayBodilessHeaders(target: UpstreamTarget): Record<string, string> {
  const { 'content-type': _json, ...headers } = runwayHeaders(target);
  return headers;
}

/** The API root without a trailing `/v1`: Runway's paths name their version segment themselves. */
export function runwayUrl(target: UpstreamTarget, path: string): string {
  return `${target.baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '')}${path}`;
}
