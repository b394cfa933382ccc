import { asArray, asRecord, asString } from '../../json/json-value.js';

/** What a fal error answer says: its readable reason and fal's machine-readable type, when given. */
export interface FalErrorBody {
  readonly message: string | undefined;
  /** `content_policy_violation`, `file_download_error`, `request_timeout`, … */
  readonly type: string | undefined;
}

/**
 * fal answers errors in two shapes: FastAPI's `{ "detail": "…" }` or `{ "detail": [{ loc, msg,
 * type }] }` (validation, content policy: 422), and `{ "error": { message, code } }`; a request's
 * own failure may also carry `error` and `error_type` as strings. Every shape is read here.
 */
export function readFalErrorBody(body: unknown, headers: Readonly<Record<string, string>> = {}): FalErrorBody {
  const record = asRecord(body) ?? {};
  const headerType = Object.entries(headers).find(([name]) => name.toLowerCase() === 'x-fal-error-type')?.[1];
  const detail = record['detail'];
  if (typeof detail === 'string') return { message: detail, type: asString(record['error_type']) ?? headerType };
  const items = asArray(detail).flatMap((item) => {
    const entry = asRecord(item);
    return entry === undefined ? [] : [entry];
  });
  if (items.length > 0) {
    const messages = items.map((item) => {
      const location = asArray(item['loc']).filter((part) => part !== 'body').join('.');
      const message = asString(item['msg']) ?? 'invalid input';
      return location === '' ? message : `${location}: ${message}`;
    });
    return { message: messages.join('; '), type: asString(items[0]?.['type']) ?? headerType };
  }
  const error = record['error'];
  if (typeof error === 'string') return { message: error, type: asString(record['error_type']) ?? headerType };
  const nested = asRecord(error);
  if (nested !== undefined) return { message: asString(nested['message']), type: asString(record['error_type']) ?? headerType };
  return { message: undefined, type: headerType };
}
