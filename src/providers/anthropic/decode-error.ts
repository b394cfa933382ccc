import { upstreamStatusError } from '../../errors/gateway-error.js';
import type { GatewayError } from '../../errors/gateway-error.js';
import { isRecord, parseJson, readRecord, readString } from '../../json/json-value.js';
import { statusForErrorType } from '../../wire/messages/index.js';

const maxMessageLength = 500;

/**
 * Upstream messages are shown to clients: URLs (which may embed hosts or keys) and anything that
 * looks like an Anthropic key are masked, and the text is capped.
 */
function sanitize(message: string): string {
  const masked = message
    .replace(/https?:\/\/\S+/g, '[url]')
    .replace(/sk-ant-[A-Za-z0-9_-]+/g, '[key]')
    .replace(/\b(?:sk|key)-[A-Za-z0-9_-]{16,}/g, '[key]');
  return masked.length > maxMessageLength ? `${masked.slice(0, maxMessageLength)}…` : masked;
}

function headerValue(headers: Readonly<Record<string, string>>, name: string): string | undefined {
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === name) return value;
  return undefined;
}

/** `retry-after` as whole seconds (delta-seconds or an HTTP date). */
export function retryAfterSeconds(headers: Readonly<Record<string, string>>, now = Date.now()): number | undefined {
  const value = headerValue(headers, 'retry-after')?.trim();
  if (value === undefined || value === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.ceil(Number(value));
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - now) / 1000));
}

interface MessagesErrorDetail {
  readonly type?: string;
  readonly message?: string;
}

/** Reads `{type:"error", error:{type, message}}`; anything else yields no detail. */
export function readMessagesError(body: unknown): MessagesErrorDetail {
  if (!isRecord(body)) return {};
  const error = readRecord(body, 'error');
  if (error === undefined) return {};
  return { type: readString(error, 'type'), message: readString(error, 'message') };
}

/** An upstream HTTP error → GatewayError, keeping the status class and the upstream error type. */
export function decodeAnthropicError(
  status: number,
  bodyText: string,
  headers: Readonly<Record<string, string>>,
): GatewayError {
  const detail = readMessagesError(parseJson(bodyText));
  const message =
    detail.message === undefined || detail.message === ''
      ? `The upstream model provider returned HTTP ${status}.`
      : `Upstream error: ${sanitize(detail.message)}`;
  const retryAfter = retryAfterSeconds(headers);
  return upstreamStatusError(status, message, {
    ...(detail.type === undefined ? {} : { upstreamType: detail.type }),
    ...(retryAfter === undefined ? {} : { retryAfterSeconds: retryAfter }),
  });
}

/** A mid-stream `error` event (HTTP status already 200) → GatewayError via the status its type stands for. */
export function streamErrorFromEvent(data: unknown): GatewayError {
  const detail = readMessagesError(data);
  const type = detail.type ?? 'api_error';
  const message =
    detail.message === undefined || detail.message === ''
      ? 'The upstream model provider failed during the response.'
      : `Upstream error: ${sanitize(detail.message)}`;
  return upstreamStatusError(statusForErrorType(type), message, { upstreamType: type });
}
