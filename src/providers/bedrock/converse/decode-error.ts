import { GatewayError, upstreamStatusError } from '../../../errors/gateway-error.js';
import { isRecord, parseJson, readString } from '../../../json/json-value.js';

/**
 * Bedrock Runtime's exceptions (the Converse and ConverseStream API reference) and the HTTP status
 * each stands for. A stream's exception event carries no status, so it is found here by name.
 */
const statusByErrorType: Readonly<Record<string, number>> = {
  AccessDeniedException: 403,
  ValidationException: 400,
  ResourceNotFoundException: 404,
  ModelTimeoutException: 408,
  ModelErrorException: 424,
  ModelStreamErrorException: 424,
  ThrottlingException: 429,
  ModelNotReadyException: 429,
  ServiceQuotaExceededException: 429,
  InternalServerException: 500,
  ServiceUnavailableException: 503,
};

/**
 * An upstream status and exception → GatewayError. A model that failed while answering
 * (`ModelErrorException`, `ModelStreamErrorException`, both 424 on the wire) is the upstream's
 * failure, not the client's, and another attempt may succeed: a retryable 502. A model that
 * timed out (408) is an upstream time-out. The rest keep their status class.
 */
function statusError(status: number, type: string | undefined, message: string, retryAfterSeconds?: number): GatewayError {
  const options = {
    upstreamStatus: status,
    ...(type === undefined ? {} : { upstreamType: type }),
    ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
  };
  if (type === 'ModelErrorException' || type === 'ModelStreamErrorException') return new GatewayError('upstream_error', message, { ...options, status: 502 });
  if (type === 'ModelTimeoutException') return new GatewayError('upstream_timeout', message, { ...options, status: 504 });
  return upstreamStatusError(status, message, options);
}

/**
 * The error's type: the `x-amzn-ErrorType` header (AWS's JSON protocols may follow the name with
 * `:` and a namespace URL, which is dropped), else the body's `__type` or `code` (where a
 * namespace may come before a `#`).
 */
export function converseErrorType(headers: Readonly<Record<string, string>>, body: unknown): string | undefined {
  const header = Object.entries(headers).find(([name]) => name.toLowerCase() === 'x-amzn-errortype')?.[1];
  const raw = header ?? (isRecord(body) ? readString(body, '__type') ?? readString(body, 'code') : undefined);
  if (raw === undefined) return undefined;
  const name = raw.split(':')[0]?.split('#').at(-1)?.trim();
  return name === undefined || name === '' ? undefined : name;
}

/** The body's `message` (AWS's JSON protocols spell it `message` or `Message`). */
function errorMessage(body: unknown): string | undefined {
  if (!isRecord(body)) return undefined;
  const message = readString(body, 'message') ?? readString(body, 'Message');
  return message === undefined || message.trim() === '' ? undefined : message;
}

function retryAfterSeconds(headers: Readonly<Record<string, string>>): number | undefined {
  const value = Object.entries(headers).find(([name]) => name.toLowerCase() === 'retry-after')?.[1]?.trim();
  if (value === undefined || !/^\d+(\.\d+)?$/.test(value)) return undefined;
  return Math.ceil(Number(value));
}

/**
 * A Converse error answer (`{"message": …}` with the `x-amzn-ErrorType` header) → GatewayError,
 * keeping the status class (429 and 503 retryable, a 400 not) and the exception's name as the
 * upstream type. Credentials and hosts are scrubbed later by decodeUpstreamError.
 */
export function decodeConverseError(status: number, bodyText: string, headers: Readonly<Record<string, string>>): GatewayError {
  const body = parseJson(bodyText);
  const type = converseErrorType(headers, body);
  const detail = errorMessage(body);
  const message = detail === undefined ? `The upstream model provider returned HTTP ${status}.` : `Upstream error: ${detail}`;
  const retryAfter = retryAfterSeconds(headers);
  return statusError(status, type, message, retryAfter);
}

/** Exception event names are the exception's name with a lower-case first letter (`throttlingException`). */
export function isConverseStreamException(eventName: string): boolean {
  return /Exception$/.test(eventName);
}

/** An exception event inside a ConverseStream answer (HTTP status already 200) → GatewayError. */
export function converseStreamError(eventName: string, data: unknown): GatewayError {
  const type = `${eventName.charAt(0).toUpperCase()}${eventName.slice(1)}`;
  const status = statusByErrorType[type] ?? 500;
  const detail = errorMessage(data);
  const message = detail === undefined ? 'The upstream model provider failed during the response.' : `Upstream error: ${detail}`;
  return statusError(status, type, message);
}

/** The stream ended before `messageStop`. */
export function truncatedStreamError(): GatewayError {
  return new GatewayError('upstream_error', 'The upstream stream ended before the response was complete.');
}
