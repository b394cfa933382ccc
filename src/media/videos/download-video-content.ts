import { AbortScope } from '../../call/abort-scope.js';
import { decodeUpstreamError } from '../../providers/decode-upstream-error.js';
import type { ProviderAdapter, UpstreamTarget } from '../../providers/provider-adapter.js';
import { flattenHeaders, readBodyText, sendUpstream, type UpstreamResponse } from '../../upstream/upstream-client.js';
import type { ContentStore, StoredContent } from '../content-store/content-store.js';
import { createMp4Probe } from './mp4-duration.js';

const maxRedirects = 5;
const redirectStatuses = new Set([301, 302, 303, 307, 308]);

export interface DownloadTarget {
  readonly url: string;
  /** The provider's headers (its credential): sent to the URL's own origin only. */
  readonly headers: Readonly<Record<string, string>>;
  readonly adapter: ProviderAdapter;
  /** The upstream the content comes from, whose credential and host its errors must not show. */
  readonly upstream: UpstreamTarget;
  readonly timeoutMs: number;
}

export interface DownloadedContent {
  readonly stored: StoredContent;
  /** The video's length as its own header says, when it is an MP4 that tells. */
  readonly durationSeconds: number | undefined;
}

/**
 * GETs content, following redirects as vendors' download links need (Veo's answers with one to
 * storage). The credential goes only to the origin it belongs to: a redirect elsewhere is
 * followed without it, since a signed storage URL needs none and must not receive it.
 */
async function fetchFollowingRedirects(target: DownloadTarget, signal: AbortScope): Promise<UpstreamResponse> {
  const origin = new URL(target.url).origin;
  let url = target.url;
  for (let hop = 0; hop <= maxRedirects; hop++) {
    const headers = new URL(url).origin === origin ? target.headers : {};
    const response = await sendUpstream({ method: 'GET', url, headers: withoutBodyHeaders(headers), signal, timeoutMs: target.timeoutMs });
    const location = response.headers.location;
    if (!redirectStatuses.has(response.statusCode) || typeof location !== 'string') return response;
    await readBodyText(response);
    url = new URL(location, url).toString();
  }
  throw new Error(`more than ${maxRedirects} redirects`);
}

/** A GET carries no body, so a JSON content type among the provider's headers would only mislead. */
function withoutBodyHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (name.toLowerCase() !== 'content-type') kept[name] = value;
  return kept;
}

/**
 * Streams one piece of upstream content into the store under `key` — never holding it whole —
 * measuring an MP4's duration on the way through.
 */
export async function downloadVideoContent(target: DownloadTarget, store: ContentStore, key: string, expiresAt: Date): Promise<DownloadedContent> {
  const signal = new AbortScope();
  const response = await fetchFollowingRedirects(target, signal);
  if (response.statusCode >= 400) {
    const text = await readBodyText(response);
    throw decodeUpstreamError(target.adapter, target.upstream, response.statusCode, text, flattenHeaders(response.headers));
  }
  const contentType = String(response.headers['content-type'] ?? 'application/octet-stream').split(';', 1)[0]?.trim() ?? 'application/octet-stream';
  const probe = createMp4Probe();
  try {
    const stored = await store.put(key, probe.pass(response.body.chunks()), contentType, { expiresAt });
    return { stored, durationSeconds: probe.result().durationSeconds };
  } catch (error) {
    signal.abort();
    throw error;
  }
}
