import { upstreamStatusError, type GatewayError } from '../../errors/gateway-error.js';
import { isRecord, parseJson, readString } from '../../json/json-value.js';
import { errorTypeForStatus } from '../../wire/messages/index.js';

/**
 * The HTTP status Bedrock Runtime answers each of its error types with (its API reference, "Errors"
 * of InvokeModel, Converse and CountTokens). Stream exceptions carry no status, so theirs comes
 * from here; lower camel case is how the event stream names them.
 */
const statusByErrorType: Readonly<Record<string, number>> = {
  accessdeniedexception: 403,
  unrecognizedclientexception: 403,
  invalidsignatureexception: 403,
  expiredtokenexception: 403,
  internalserverexception: 500,
  modelerrorexception: 424,
  modelnotreadyexception: 429,
  modelstreamerrorexception: 424,
  modeltimeoutexception: 408,
  resourcenotfoundexception: 404,
  servicequotaexceededexception: 400,
  serviceunavailableexception: 503,
  throttlingexception: 429,
  validationexception: 400,
  malformedeventstreamexception: 502,
};

/** `ThrottlingException:http://internal.amazon.com/coral/…` → `ThrottlingException`. */
export function bedrockErrorType(headers: Readonly<Record<string, string>>): string | undefined {
  for (const [name, value] of Object.entries(headers)) {
    if (name.toLowerCase() === 'x-amzn-errortype') return value.split(':')[0]?.trim() || undefined;
  }
  return undefined;
}

function retryAfterSeconds(headers: Readonly<Record<string, string>>): number | undefined {
  for (const [name, value] of Object.entries(headers)) {
    if (name.toLowerCase() === 'retry-after' && /^\d+$/.test(value.trim())) return Number(value.trim());
  }
  return undefined;
}

/** Bedrock's error bodies are `{"message": "…"}` (some services spell it `Message`). */
function messageOf(bodyText: string): string | undefined {
  const body = parseJson(bodyText);
  if (!isRecord(body)) return undefined;
  return readString(body, 'message') ?? readString(body, 'Message');
}

function errorFor(status: number, type: string | undefined, message: string | undefined, retryAfter?: number): GatewayError {
  const text = message === undefined || message === '' ? `The upstream model provider returned HTTP ${status}.` : `Upstream error: ${message}`;
  // The Messages type for the status, so a Messages client meets the type Anthropic would send.
  return upstreamStatusError(status, type === undefined ? text : `${text} (${type})`, {
    upstreamType: errorTypeForStatus(status),
    ...(retryAfter === undefined ? {} : { retryAfterSeconds: retryAfter }),
  });
}

/**
 * A Bedrock Runtime error answer → GatewayError. The status is kept (throttling and an unavailable
 * service stay 429 / 503, so the route is retried or the next one tried); a body that is not
 * Bedrock's shape still yields the status class.
 */
export function decodeBedrockError(status: number, bodyText: string, headers: Readonly<Record<string, string>>): GatewayError {
  return errorFor(status, bedrockErrorType(headers), messageOf(bodyText), retryAfterSeconds(headers));
}

/** The HTTP status a Bedrock error type stands for; an unknown type is a 502-class failure. */
export function statusForBedrockErrorType(type: string): number {
  return statusByErrorType[type.toLowerCase()] ?? 500;
}

/**
 * An exception frame of an event stream → the status it stands for and its message. A
 * `modelStreamErrorException` carries the model's own status (`originalStatusCode`), which wins.
 */
export function readStreamException(exceptionType: string, payload: string): { readonly status: number; readonly message: string | undefined } {
  const body = parseJson(payload);
  const original = isRecord(body) && typeof body.originalStatusCode === 'number' ? body.originalStatusCode : undefined;
  const status = original !== undefined && original >= 400 && original <= 599 ? original : statusForBedrockErrorType(exceptionType);
  return { status, message: messageOf(payload) };
}

/** An exception frame as a GatewayError (the same mapping as an HTTP error of that type). */
export function streamExceptionError(exceptionType: string, payload: string): GatewayError {
  const { status, message } = readStreamException(exceptionType, payload);
  return errorFor(status, exceptionType, message);
}
