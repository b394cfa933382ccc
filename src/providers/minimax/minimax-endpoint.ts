import type { UpstreamTarget } from '../provider-adapter.js';

/** The API root without a version segment: MiniMax's paths carry theirs (`/v1/video_generation`). */
export function miniMaxRoot(target: UpstreamTarget): string {
  return target.baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
}

/** The key as a bearer token, and the operator's own headers. */
export function miniMaxHeaders(target: UpstreamTarget): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (target.apiKey) headers.authorization = `Bearer ${target.apiKey}`;
  return { ...headers, ...target.headers };
}

/** A GET carries no body: the key and the operator's headers only. */
export function miniMaxGetHeaders(target: UpstreamTarget): Record<string, string> {
  const { 'content-type': _json, ...headers } = miniMaxHeaders(target);
  return headers;
}
