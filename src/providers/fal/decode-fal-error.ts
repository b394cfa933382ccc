import { upstreamStatusError, type GatewayError } from '../../errors/gateway-error.js';
import { parseJson } from '../../json/json-value.js';
import { readFalErrorBody } from './fal-error-body.js';

function retryAfter(headers: Readonly<Record<string, string>>): number | undefined {
  const value = Object.entries(headers).find(([name]) => name.toLowerCase() === 'retry-after')?.[1];
  const seconds = Number(value);
  return value === undefined || !Number.isFinite(seconds) || seconds < 0 ? undefined : Math.ceil(seconds);
}

/** A fal error answer → GatewayError, the status class kept and fal's error type carried. */
export function decodeFalError(status: number, bodyText: string, headers: Readonly<Record<string, string>>): GatewayError {
  const body = readFalErrorBody(parseJson(bodyText), headers);
  const message = body.message === undefined ? `fal upstream returned HTTP ${status}.` : `fal upstream error: ${body.message}`;
  const seconds = retryAfter(headers);
  return upstreamStatusError(status, message, { ...(body.type === undefined ? {} : { upstreamType: body.type }), ...(seconds === undefined ? {} : { retryAfterSeconds: seconds }) });
}
