import { Agent, errors as undiciErrors, request } from 'undici';
import type { Dispatcher } from 'undici';
import { GatewayError } from '../errors/gateway-error.js';

/**
 * One keep-alive dispatcher for every upstream: undici keeps a connection pool per origin inside
 * it, so repeated calls to the same provider reuse warm sockets. The pool is not capped: a capped
 * pool makes the thousand-and-first concurrent stream wait for a whole other stream to finish.
 */
let sharedDispatcher: Agent | undefined;

function dispatcher(): Agent {
  sharedDispatcher ??= new Agent({ keepAliveTimeout: 30_000, keepAliveMaxTimeout: 600_000, pipelining: 1 });
  return sharedDispatcher;
}

export interface UpstreamCall {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | Buffer;
  /** Aborted when the client goes away or the gateway gives up on this attempt. */
  readonly signal: AbortSignal;
  /** Time allowed until the upstream's response headers, and between body chunks. */
  readonly timeoutMs: number;
}

export type UpstreamResponse = Dispatcher.ResponseData;

/** Sends one request upstream. Connection failures and time-outs become retryable GatewayErrors. */
export async function sendUpstream(call: UpstreamCall): Promise<UpstreamResponse> {
  try {
    return await request(call.url, {
      method: 'POST',
      headers: call.headers,
      body: call.body,
      signal: call.signal,
      dispatcher: dispatcher(),
      headersTimeout: call.timeoutMs,
      bodyTimeout: call.timeoutMs,
    });
  } catch (error) {
    throw upstreamTransportError(error, call.signal);
  }
}

/** Maps a transport failure to the client-facing error; the URL and host are never included. */
export function upstreamTransportError(error: unknown, signal?: AbortSignal): GatewayError {
  if (error instanceof GatewayError) return error;
  if (signal?.aborted) return new GatewayError('upstream_timeout', 'The request was cancelled before the upstream answered.', { cause: error });
  if (error instanceof undiciErrors.HeadersTimeoutError || error instanceof undiciErrors.BodyTimeoutError) {
    return new GatewayError('upstream_timeout', 'The upstream did not answer in time.', { cause: error });
  }
  return new GatewayError('upstream_connect_failed', 'The upstream could not be reached.', { cause: error });
}

/** Reads a whole upstream body as text (used for errors and non-streamed answers). */
export async function readBodyText(response: UpstreamResponse): Promise<string> {
  return response.body.text();
}

/** Response headers as a flat record of lower-case names (undici may give arrays for repeats). */
export function flattenHeaders(headers: UpstreamResponse['headers']): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

export async function closeUpstreamPools(): Promise<void> {
  const closing = sharedDispatcher;
  sharedDispatcher = undefined;
  await closing?.close();
}
