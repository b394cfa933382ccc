import type { MessagesErrorType } from './messages-types.js';

const statusByErrorType: Readonly<Record<MessagesErrorType, number>> = {
  invalid_request_error: 400,
  authentication_error: 401,
  billing_error: 402,
  permission_error: 403,
  not_found_error: 404,
  conflict_error: 409,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  timeout_error: 504,
  overloaded_error: 529,
};

const errorTypeByStatus: ReadonlyMap<number, MessagesErrorType> = new Map(
  Object.entries(statusByErrorType).map(([type, status]) => [status, type as MessagesErrorType]),
);

export function isMessagesErrorType(value: string): value is MessagesErrorType {
  return Object.hasOwn(statusByErrorType, value);
}

/** The Messages error type for an HTTP status; other 4xx are `invalid_request_error`, other 5xx `api_error`. */
export function errorTypeForStatus(status: number): MessagesErrorType {
  const exact = errorTypeByStatus.get(status);
  if (exact !== undefined) return exact;
  if (status === 408) return 'timeout_error';
  if (status === 503) return 'overloaded_error';
  return status >= 500 ? 'api_error' : 'invalid_request_error';
}

/** The HTTP status Messages uses for an error type (unknown types count as a 500 `api_error`). */
export function statusForErrorType(type: string): number {
  return isMessagesErrorType(type) ? statusByErrorType[type] : 500;
}
