import { describe, expect, it } from 'vitest';
import { decodeGeminiError } from './decode-error.js';
import { readFixture } from '../../../test/support/fixtures.js';

describe('decodeGeminiError', () => {
  it('maps the recorded 429 with its RetryInfo delay rounded up (google-429-retry-info.json)', () => {
    const error = decodeGeminiError(429, readFixture('google/generate-content/google-429-retry-info.json'), {});
    expect(error.code).toBe('upstream_rate_limited');
    expect(error.status).toBe(429);
    expect(error.retryable).toBe(true);
    expect(error.retryAfterSeconds).toBe(35);
    expect(error.upstreamType).toBe('RESOURCE_EXHAUSTED');
    expect(error.message).toContain('You exceeded your current quota');
  });

  it('keeps an upstream 400 a client error with its status name', () => {
    const body = JSON.stringify({ error: { code: 400, message: 'Invalid value at contents[0]', status: 'INVALID_ARGUMENT' } });
    const error = decodeGeminiError(400, body, {});
    expect([error.code, error.status, error.upstreamType, error.retryable]).toEqual(['upstream_client_error', 400, 'INVALID_ARGUMENT', false]);
  });

  it('treats a refused gateway credential as the gateway’s upstream failure', () => {
    const body = JSON.stringify({ error: { code: 403, message: 'Permission denied', status: 'PERMISSION_DENIED' } });
    expect([decodeGeminiError(403, body, {}).code, decodeGeminiError(403, body, {}).status]).toEqual(['upstream_error', 502]);
  });

  it('reads the array-wrapped envelope and falls back to retry-after when the body has no RetryInfo', () => {
    const body = JSON.stringify([{ error: { code: 503, message: 'overloaded', status: 'UNAVAILABLE' } }]);
    const error = decodeGeminiError(503, body, { 'Retry-After': '4' });
    expect([error.code, error.status, error.upstreamType, error.retryAfterSeconds]).toEqual(['upstream_unavailable', 503, 'UNAVAILABLE', 4]);
  });

  it('still maps a body that is not JSON by its status', () => {
    const error = decodeGeminiError(500, '<html>oops</html>', {});
    expect([error.code, error.status, error.upstreamType]).toEqual(['upstream_error', 502, undefined]);
    expect(error.message).toBe('Gemini upstream returned HTTP 500.');
  });
});
