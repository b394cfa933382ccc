import type { UpstreamTarget } from '../provider-adapter.js';

/** BFL's API root without its version segment (`https://api.bfl.ai`, or a regional host). */
export function bflRoot(target: UpstreamTarget): string {
  return target.baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
}

/** Where a model's task is submitted: `POST {root}/v1/{model}`. */
export function bflSubmitUrl(target: UpstreamTarget): string {
  return `${bflRoot(target)}/v1/${encodeURIComponent(target.model)}`;
}

/** The result of a task on the API root itself, for a submit answer that named no `polling_url`. */
export function bflResultUrl(target: UpstreamTarget, id: string): string {
  return `${bflRoot(target)}/v1/get_result?id=${encodeURIComponent(id)}`;
}

/**
 * Whether BFL's key goes with a call to this URL: to the configured root's origin, and to BFL's
 * own hosts (a `polling_url` names the regional cluster that holds the task, which BFL says to
 * use as given). Anywhere else it would hand the key to a stranger.
 */
export function sendsKeyTo(url: string, target: UpstreamTarget): boolean {
  const parsed = new URL(url);
  if (parsed.origin === new URL(bflRoot(target)).origin) return true;
  return parsed.protocol === 'https:' && (parsed.hostname === 'bfl.ai' || parsed.hostname.endsWith('.bfl.ai') || parsed.hostname.endsWith('.bfl.ml'));
}

/** The credential header, and the operator's own headers. */
export function bflHeaders(target: UpstreamTarget): Record<string, string> {
  return { 'content-type': 'application/json', ...(target.apiKey ? { 'x-key': target.apiKey } : {}), ...target.headers };
}
