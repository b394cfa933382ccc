import { upstreamStatusError, type GatewayError } from '../../errors/gateway-error.js';
import { parseJson } from '../../json/json-value.js';
import { readGeminiErrorBody, type GeminiErrorBody } from './wire/gemini-error-body.js';

/**
 * A Gemini error response → GatewayError, keeping the status class. The wait comes from the
 * body's `google.rpc.RetryInfo` (Gemini's usual carrier) or else a `retry-after` header; the
 * upstream's own type is its `status` (`RESOURCE_EXHAUSTED`, `INVALID_ARGUMENT`, …).
 */
export function decodeGeminiError(
  status: number,
  bodyText: string,
  headers: Readonly<Record<string, string>>,
): GatewayError {
  const body = readGeminiErrorBody(parseJson(bodyText));
  return gatewayErrorFromGemini(status, body, retryAfterHeader(headers));
}

export function gatewayErrorFromGemini(
  status: number,
  body: GeminiErrorBody | undefined,
  retryAfterFromHeader?: number,
): GatewayError {
  const message = body?.message ? `Gemini upstream error: ${body.message}` : `Gemini upstream returned HTTP ${status}.`;
  const retryAfterSeconds = body?.retryAfterSeconds ?? retryAfterFromHeader;
  return upstreamStatusError(status, message, {
    ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
    ...(body?.status === undefined ? {} : { upstreamType: body.status }),
  });
}

function retryAfterHeader(headers: Readonly<Record<string, string>>): number | undefined {
  const entry = Object.entries(headers).find(([name]) => name.toLowerCase() === 'retry-after');
  if (entry === undefined) return undefined;
  const seconds = Number(entry[1]);
  return Number.isFinite(seconds) && seconds >= 0 ? Math.ceil(seconds) : undefined;
}
