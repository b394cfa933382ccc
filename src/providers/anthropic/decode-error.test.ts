import { describe, expect, it } from 'vitest';
import { anthropicAdapter } from './index.js';
import { retryAfterSeconds } from './decode-error.js';

// Error bodies in the shape Anthropic documents (docs/wire-formats.md §3.4); no error response was recorded.
const notFoundBody =
  '{"type":"error","error":{"type":"not_found_error","message":"The requested resource could not be found."},"request_id":"req_011CSHoEeqs5C35K2UUqR7Fy"}';
const rateLimitBody =
  '{"type":"error","error":{"type":"rate_limit_error","message":"This request would exceed the rate limit for your organization of 50,000 input tokens per minute."},"request_id":"req_011CSHoEeqs5C35K2UUqR7Fz"}';

describe('decodeError', () => {
  it('keeps a 404 a client error with the upstream type and message', () => {
    const error = anthropicAdapter.decodeError(404, notFoundBody, {});
    expect(error.code).toBe('upstream_client_error');
    expect(error.status).toBe(404);
    expect(error.upstreamType).toBe('not_found_error');
    expect(error.message).toContain('The requested resource could not be found.');
  });

  it('maps 429 to a retryable rate limit with retry-after seconds', () => {
    const error = anthropicAdapter.decodeError(429, rateLimitBody, { 'Retry-After': '17' });
    expect(error.code).toBe('upstream_rate_limited');
    expect(error.status).toBe(429);
    expect(error.retryable).toBe(true);
    expect(error.retryAfterSeconds).toBe(17);
    expect(error.upstreamType).toBe('rate_limit_error');
  });

  it('maps 529 overloaded to upstream_unavailable', () => {
    const error = anthropicAdapter.decodeError(529, '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}', {});
    expect(error.code).toBe('upstream_unavailable');
    expect(error.status).toBe(503);
    expect(error.upstreamType).toBe('overloaded_error');
  });

  it('does not let the gateway credential failure look like the client’s fault', () => {
    const error = anthropicAdapter.decodeError(401, '{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}', {});
    expect(error.code).toBe('upstream_error');
    expect(error.status).toBe(502);
  });

  it('masks URLs and keys in upstream messages', () => {
    const body = '{"type":"error","error":{"type":"invalid_request_error","message":"Bad key sk-ant-api03-abcdefABCDEF123 for https://internal.example/v1?key=secret"}}';
    const error = anthropicAdapter.decodeError(400, body, {});
    expect(error.message).not.toContain('sk-ant');
    expect(error.message).not.toContain('internal.example');
    expect(error.message).toContain('[key]');
    expect(error.message).toContain('[url]');
  });

  it('falls back to a generic message for a body that is not a Messages error', () => {
    const error = anthropicAdapter.decodeError(502, '<html>Bad gateway</html>', {});
    expect(error.code).toBe('upstream_error');
    expect(error.message).toBe('The upstream model provider returned HTTP 502.');
    expect(error.upstreamType).toBeUndefined();
  });

  it('reads retry-after as an HTTP date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterSeconds({ 'retry-after': 'Thu, 01 Jan 2026 00:00:30 GMT' }, now)).toBe(30);
    expect(retryAfterSeconds({ 'retry-after': 'soon' }, now)).toBeUndefined();
  });
});
