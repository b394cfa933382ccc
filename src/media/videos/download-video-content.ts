import type { Dispatcher } from 'undici';
import { AbortScope } from '../../call/abort-scope.js';
import { GatewayError } from '../../errors/gateway-error.js';
import type { VideoContentVariant } from '../../ir/video-generation.js';
import { decodeUpstreamError } from '../../providers/decode-upstream-error.js';
import type { ProviderAdapter, UpstreamTarget } from '../../providers/provider-adapter.js';
import { flattenHeaders, readBodyText, sendUpstream, type UpstreamResponse } from '../../upstream/upstream-client.js';
import { sendAuthorized } from '../../upstream/send-authorized.js';
import type { ContentStore, StoredContent } from '../content-store/content-store.js';
import { allowsPrivateAddresses, assertOutsideHost, outsideOnlyDispatcher, type PrivateAddressRule } from './download-address-guard.js';
import { createMp4Probe } from './mp4-duration.js';
import { keptContentType } from './video-content-type.js';

const maxRedirects = 5;
const redirectStatuses = new Set([301, 302, 303, 307, 308]);

export interface DownloadTarget {
  readonly url: string;
  readonly variant: VideoContentVariant;
  /** The provider's headers (its credential): sent only where `carriesCredential` allows. */
  readonly headers: Readonly<Record<string, string>>;
  readonly adapter: ProviderAdapter;
  /**
   * The upstream the content comes from: its errors must not show its credential or host, and its
   * configured API root's origin is the operator's choice, so always fetched from.
   */
  readonly upstream: UpstreamTarget;
  readonly timeoutMs: number;
  /** Content larger than this is refused (`videos.download_max_bytes`). */
  readonly maxBytes: number;
  readonly privateAddresses: PrivateAddressRule;
}

export interface DownloadedContent {
  readonly stored: StoredContent;
  /** The video's length as its own header says, when it is an MP4 that tells. */
  readonly durationSeconds: number | undefined;
}

/**
 * How one URL is fetched: the provider's own origin as configured; any other through a dispatcher
 * that connects to public addresses only, unless the rule lets this provider's links lead inside.
 */
function dispatcherFor(url: URL, providerOrigin: string, insideAllowed: boolean): Dispatcher | undefined {
  if (insideAllowed || url.origin === providerOrigin) return undefined;
  assertOutsideHost(url);
  return outsideOnlyDispatcher();
}

/**
 * Whether a content URL gets the provider's headers and authorization: on the provider's own API
 * origin only — its configured root, or the vendor's public one (a Gemini file link names Google's
 * API even when the provider is reached through a proxy) — or on a host its adapter claims for the
 * same credential (Vertex's Cloud Storage). Whoever named the link, a vendor's CDN or signed
 * storage gets nothing, since a link that needs no credential must not receive one.
 */
export function carriesCredential(url: URL, adapter: ProviderAdapter, upstream: UpstreamTarget): boolean {
  if (url.origin === new URL(upstream.baseUrl).origin) return true;
  const publicRoot = adapter.apiRoot.defaultBaseUrl;
  if (publicRoot !== undefined && url.origin === new URL(publicRoot).origin) return true;
  return adapter.videos?.credentialedContentHost?.(url, upstream) === true;
}

/**
 * GETs content, following redirects as vendors' download links need (Veo's answers with one to
 * storage). Each hop carries the credential only where `carriesCredential` says so. A link or
 * redirect into the gateway's own network is refused (see `allowsPrivateAddresses`).
 */
async function fetchFollowingRedirects(target: DownloadTarget, signal: AbortScope): Promise<UpstreamResponse> {
  const providerOrigin = new URL(target.upstream.baseUrl).origin;
  const insideAllowed = await allowsPrivateAddresses(target.privateAddresses, target.upstream.baseUrl);
  let url = target.url;
  for (let hop = 0; hop <= maxRedirects; hop++) {
    const parsed = new URL(url);
    const dispatcher = dispatcherFor(parsed, providerOrigin, insideAllowed);
    const withCredential = carriesCredential(parsed, target.adapter, target.upstream);
    const call = {
      method: 'GET' as const,
      url,
      headers: withoutBodyHeaders(withCredential ? target.headers : {}),
      signal,
      timeoutMs: target.timeoutMs,
      maxAnswerBytes: target.maxBytes,
      ...(dispatcher === undefined ? {} : { dispatcher }),
    };
    // The provider's authorization, like its headers, goes only to the content's own origin.
    const response = withCredential ? await sendAuthorized(target.adapter, target.upstream, call) : await sendUpstream(call);
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

function tooLarge(maxBytes: number): GatewayError {
  return new GatewayError('upstream_content_refused', `The upstream's content is larger than the ${maxBytes} bytes the gateway keeps (videos.download_max_bytes).`);
}

/** Refuses an answer that announces more than the cap before any of it is read. */
function assertAnnouncedSize(response: UpstreamResponse, maxBytes: number): void {
  const announced = Number(response.headers['content-length']);
  if (Number.isFinite(announced) && announced > maxBytes) throw tooLarge(maxBytes);
}

/**
 * Streams one piece of upstream content into the store under `key` — never holding it whole —
 * measuring an MP4's duration on the way through. Content of a type the gateway does not serve,
 * or larger than the cap, is refused with `upstream_content_refused` and nothing is kept.
 */
export async function downloadVideoContent(target: DownloadTarget, store: ContentStore, key: string, expiresAt: Date): Promise<DownloadedContent> {
  if (target.url.startsWith('data:')) return storeInlineContent(target, store, key, expiresAt);
  const signal = new AbortScope();
  try {
    const response = await fetchFollowingRedirects(target, signal);
    if (response.statusCode >= 400) {
      const text = await readBodyText(response);
      throw decodeUpstreamError(target.adapter, target.upstream, response.statusCode, text, flattenHeaders(response.headers));
    }
    const contentType = keptContentType(target.variant, typeof response.headers['content-type'] === 'string' ? response.headers['content-type'] : undefined);
    assertAnnouncedSize(response, target.maxBytes);
    const probe = createMp4Probe();
    const stored = await store.put(key, probe.pass(response.body.chunks()), contentType, { expiresAt });
    return { stored, durationSeconds: probe.result().durationSeconds };
  } catch (error) {
    signal.abort();
    if (error instanceof GatewayError && error.code === 'upstream_answer_too_large') throw tooLarge(target.maxBytes);
    throw error;
  }
}

/**
 * Content the upstream handed back inline (Vertex's Veo without a bucket answers with the video's
 * base64 in the operation), as a `data:` URL: stored under the same rules as a download.
 */
async function storeInlineContent(target: DownloadTarget, store: ContentStore, key: string, expiresAt: Date): Promise<DownloadedContent> {
  const match = /^data:([^;,]+);base64,(.*)$/s.exec(target.url);
  if (match === null) throw new GatewayError('upstream_content_refused', 'The upstream handed back inline content the gateway cannot read.');
  const [, mediaType, base64] = match as unknown as [string, string, string];
  // Base64 is four characters for three bytes: the size is known before anything is decoded.
  if (Math.floor((base64.length * 3) / 4) > target.maxBytes + 2) throw tooLarge(target.maxBytes);
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length > target.maxBytes) throw tooLarge(target.maxBytes);
  const contentType = keptContentType(target.variant, mediaType);
  const probe = createMp4Probe();
  const stored = await store.put(key, probe.pass(oneChunk(bytes)), contentType, { expiresAt });
  return { stored, durationSeconds: probe.result().durationSeconds };
}

async function* oneChunk(bytes: Uint8Array): AsyncIterable<Uint8Array> {
  yield bytes;
}
