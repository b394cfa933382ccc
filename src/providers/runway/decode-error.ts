import { upstreamStatusError, type GatewayError } from '../../errors/gateway-error.js';
import { isRecord, parseJson } from '../../json/json-value.js';

/** Runway's error answers carry a readable `error` string (and, for a 400, sometimes the issues found). */
function errorText(bodyText: string): string | undefined {
  const body = parseJson(bodyText);
  if (!isRecord(body)) return undefined;
  const error = body['error'];
  if (typeof error === 'string' && error.trim() !== '') return error;
  const message = isRecord(error) ? error['message'] : undefined;
  return typeof message === 'string' ? message : undefined;
}

function retryAfterSeconds(headers: Readonly<Record<string, string>>): number | undefined {
  const entry = Object.entries(headers).find(([name]) => name.toLowerCase() === 'retry-after');
  if (entry === undefined) return undefined;
  const seconds = Number(entry[1]);
  return Number.isFinite(seconds) && seconds >= 0 ? Math.ceil(seconds) : undefined;
}

/**
 * A Runway error answer → GatewayError with its status class kept: a 400 is the request's fault
 * (Runway says not to retry it), a 429 or 5xx is worth a retry, a 401 is the gateway's key.
 */
export function decodeRunwayError(status: number, bodyText: string, headers: Readonly<Record<string, string>>): GatewayError {
  const text = errorText(bodyText);
  const wait = retryAfterSeconds(headers);
  const message = text === undefined ? `Runway upstream returned HTTP ${status}.` : `Runway upstream error: ${text}`;
  return upstreamStatusError(status, message, wait === undefined ? {} : { retryAfterSeconds: wait });
}
