import { describe, expect, it } from 'vitest';
import { errorTypeForStatus, statusForErrorType } from './error-type.js';

const table: readonly [number, string][] = [
  [400, 'invalid_request_error'],
  [401, 'authentication_error'],
  [402, 'billing_error'],
  [403, 'permission_error'],
  [404, 'not_found_error'],
  [409, 'conflict_error'],
  [413, 'request_too_large'],
  [429, 'rate_limit_error'],
  [500, 'api_error'],
  [504, 'timeout_error'],
  [529, 'overloaded_error'],
];

describe('Messages error types', () => {
  it.each(table)('status %i is %s', (status, type) => {
    expect(errorTypeForStatus(status)).toBe(type);
  });

  it.each(table)('status %i comes back from %s', (status, type) => {
    expect(statusForErrorType(type)).toBe(status);
  });

  it('uses invalid_request_error for other client errors and api_error for other server errors', () => {
    expect(errorTypeForStatus(422)).toBe('invalid_request_error');
    expect(errorTypeForStatus(502)).toBe('api_error');
  });

  it('treats an unknown error type as a server error', () => {
    expect(statusForErrorType('memory_path_conflict_error')).toBe(500);
  });
});
