import { toGatewayError, type GatewayError } from '../errors/gateway-error.js';
import type { ClientFormat } from '../formats/client-format.js';
import { chatFormat } from '../formats/chat/index.js';
import type { ChunkStream } from '../call/commit-stream.js';
import { RateLimitedError } from '../governance/rate-limits/rate-limited-error.js';
import { rateLimitHeaders } from '../governance/rate-limits/rate-limit-headers.js';

/** What an endpoint answers, written straight to Node's response (see write-answer.ts). */
export interface GatewayAnswer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string | Uint8Array | ChunkStream;
}

/**
 * An error in the caller's format (the OpenAI shape where a path has no format of its own), with
 * the request id header and `retry-after` where one is known.
 */
export function errorAnswer(thrown: unknown, requestId: string, format: ClientFormat = chatFormat): GatewayAnswer {
  const error: GatewayError = toGatewayError(thrown);
  const encoded = format.encodeError(error, requestId);
  const headers: Record<string, string> = { 'content-type': 'application/json', 'x-request-id': requestId };
  if (error.retryAfterSeconds !== undefined) headers['retry-after'] = String(error.retryAfterSeconds);
  if (error instanceof RateLimitedError && error.standing !== null) Object.assign(headers, rateLimitHeaders(error.standing, format.name, Date.now()));
  // A body refused for its size was not read to the end: close instead of draining it.
  if (error.code === 'body_too_large') headers.connection = 'close';
  return { status: encoded.status, headers, body: JSON.stringify(encoded.body) };
}
