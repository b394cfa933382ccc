import type { Dispatcher } from 'undici';
import type { AbortScope } from '../../call/abort-scope.js';
import { GatewayError } from '../../errors/gateway-error.js';
import type { GeneratedImage, ImageOutputFormat } from '../../ir/image-generation.js';
import { decodeUpstreamError } from '../../providers/decode-upstream-error.js';
import type { ProviderAdapter, UpstreamTarget } from '../../providers/provider-adapter.js';
import { flattenHeaders, readBodyText, sendUpstream, upstreamTransportError, type UpstreamResponse } from '../../upstream/upstream-client.js';
import { allowsPrivateAddresses, assertOutsideHost, outsideOnlyDispatcher, type PrivateAddressRule } from '../videos/download-address-guard.js';
import { loadSharp } from './load-sharp.js';

const maxRedirects = 3;
const redirectStatuses = new Set([301, 302, 303, 307, 308]);
const formats: Readonly<Record<string, ImageOutputFormat>> = { png: 'png', jpeg: 'jpeg', jpg: 'jpeg', webp: 'webp' };

export interface JobImageFetch {
  readonly upstream: UpstreamTarget;
  readonly adapter: ProviderAdapter;
  readonly signal: AbortScope;
  readonly timeoutMs: number;
  readonly maxBytes: number;
  readonly privateAddresses: PrivateAddressRule;
}

/** A fetched image with what its bytes say about it. */
export type FetchedJobImage = GeneratedImage & { readonly format?: ImageOutputFormat };

/**
 * Fetches one image a finished job names. Result URLs are signed, so no credential is sent: the
 * provider's key stays with its API. A URL (or redirect) into the gateway's own network is refused
 * unless the provider itself is there (`videos.download_private_addresses`). The bytes must decode
 * as an image; its size is measured from them, for the answer and for per-megapixel prices.
 */
export async function fetchJobImage(url: string, fetch: JobImageFetch): Promise<FetchedJobImage> {
  const response = await fetchFollowingRedirects(url, fetch).catch((error: unknown) => {
    throw upstreamTransportError(error, fetch.signal);
  });
  const body = await readBytes(response, fetch);
  if (response.statusCode >= 400) {
    throw decodeUpstreamError(fetch.adapter, fetch.upstream, response.statusCode, body.toString('utf8'), flattenHeaders(response.headers));
  }
  const sharp = await loadSharp();
  const metadata = await sharp(body)
    .metadata()
    .catch(() => {
      throw new GatewayError('upstream_content_refused', "The upstream's image job result is not an image the gateway can read.");
    });
  const format = metadata.format === undefined ? undefined : formats[metadata.format];
  return {
    base64: body.toString('base64'),
    ...(metadata.width === undefined || metadata.height === undefined ? {} : { width: metadata.width, height: metadata.height }),
    ...(format === undefined ? {} : { format }),
  };
}

async function readBytes(response: UpstreamResponse, fetch: JobImageFetch): Promise<Buffer> {
  try {
    return await response.body.bytes();
  } catch (error) {
    if (error instanceof GatewayError && error.code === 'upstream_answer_too_large') {
      throw new GatewayError('upstream_content_refused', `The upstream's image is larger than the ${fetch.maxBytes} bytes the gateway keeps (images.download_max_bytes).`);
    }
    throw upstreamTransportError(error, fetch.signal);
  }
}

async function fetchFollowingRedirects(first: string, fetch: JobImageFetch): Promise<UpstreamResponse> {
  const providerOrigin = new URL(fetch.upstream.baseUrl).origin;
  const insideAllowed = await allowsPrivateAddresses(fetch.privateAddresses, fetch.upstream.baseUrl);
  let url = first;
  for (let hop = 0; hop <= maxRedirects; hop++) {
    const parsed = new URL(url);
    const dispatcher = dispatcherFor(parsed, providerOrigin, insideAllowed);
    const response = await sendUpstream({
      method: 'GET',
      url,
      headers: {},
      signal: fetch.signal,
      timeoutMs: fetch.timeoutMs,
      maxAnswerBytes: fetch.maxBytes,
      ...(dispatcher === undefined ? {} : { dispatcher }),
    });
    const location = response.headers.location;
    if (!redirectStatuses.has(response.statusCode) || typeof location !== 'string') return response;
    await readBodyText(response);
    url = new URL(location, url).toString();
  }
  throw new GatewayError('upstream_invalid_response', `The upstream's image URL redirected more than ${maxRedirects} times.`);
}

function dispatcherFor(url: URL, providerOrigin: string, insideAllowed: boolean): Dispatcher | undefined {
  if (insideAllowed || url.origin === providerOrigin) return undefined;
  assertOutsideHost(url);
  return outsideOnlyDispatcher();
}
