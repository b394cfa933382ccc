import { isRecord } from '../../../json/json-value.js';

/** What the gateway reads from a Gemini error body `{error:{code,message,status,details}}`. */
export interface GeminiErrorBody {
  readonly code?: number;
  readonly message?: string;
  readonly status?: string;
  /** From a `google.rpc.RetryInfo` detail, rounded up to whole seconds. */
  readonly retryAfterSeconds?: number;
}

/**
 * Reads a Gemini error envelope from parsed JSON. Streams sometimes wrap it in a one-element
 * array (`[{error:…}]`), so that shape is accepted too. Returns undefined when it is not one.
 */
export function readGeminiErrorBody(value: unknown): GeminiErrorBody | undefined {
  const envelope = Array.isArray(value) ? (value as unknown[])[0] : value;
  if (!isRecord(envelope) || !isRecord(envelope.error)) return undefined;
  const error = envelope.error;
  const result: { code?: number; message?: string; status?: string; retryAfterSeconds?: number } = {};
  if (typeof error.code === 'number') result.code = error.code;
  if (typeof error.message === 'string') result.message = error.message;
  if (typeof error.status === 'string') result.status = error.status;
  const retryAfterSeconds = retryDelayFromDetails(error.details);
  if (retryAfterSeconds !== undefined) result.retryAfterSeconds = retryAfterSeconds;
  return result;
}

function retryDelayFromDetails(details: unknown): number | undefined {
  if (!Array.isArray(details)) return undefined;
  for (const detail of details) {
    if (!isRecord(detail)) continue;
    const type = detail['@type'];
    if (typeof type === 'string' && type.endsWith('google.rpc.RetryInfo')) {
      return parseDurationSeconds(detail.retryDelay);
    }
  }
  return undefined;
}

/** A protobuf Duration in JSON (`"34.4s"`) → whole seconds, rounded up so a client never retries early. */
export function parseDurationSeconds(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const match = /^(\d+(?:\.\d+)?)s$/.exec(value.trim());
  if (!match?.[1]) return undefined;
  return Math.ceil(Number(match[1]));
}
