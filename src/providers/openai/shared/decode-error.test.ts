import { describe, expect, it } from 'vitest';
import { decodeOpenAIError } from './decode-error.js';
import { readFixture } from '../../../../test/support/fixtures.js';

describe('decodeOpenAIError', () => {
  it('keeps the recorded 400 message and status for the unsupported max_tokens error', () => {
    const error = decodeOpenAIError(400, readFixture('openai/chat/reasoning-model-legacy-parameter-error.json'), {});
    expect(error.code).toBe('upstream_client_error');
    expect(error.status).toBe(400);
    expect(error.message).toBe("Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.");
    expect(error.upstreamType).toBe('invalid_request_error');
  });

  it('maps the recorded 429 insufficient_quota body to a rate-limit error with retry-after', () => {
    const error = decodeOpenAIError(429, readFixture('openai/responses/openai-error.1.json'), { 'Retry-After': '7' });
    expect(error.code).toBe('upstream_rate_limited');
    expect(error.status).toBe(429);
    expect(error.upstreamType).toBe('insufficient_quota');
    expect(error.message).toMatch(/^You exceeded your current quota/);
    expect(error.retryAfterSeconds).toBe(7);
  });

  it('reads retry-after-ms when retry-after is absent', () => {
    expect(decodeOpenAIError(429, '{}', { 'retry-after-ms': '1500' }).retryAfterSeconds).toBe(2);
  });

  it('does not quote a body that is not an OpenAI error (proxies answer with HTML)', () => {
    const error = decodeOpenAIError(502, '<html>bad gateway at internal-host.local</html>', {});
    expect(error.message).toBe('The upstream returned HTTP 502.');
    expect(error.code).toBe('upstream_error');
  });

  it('reads the compat variants {error:"text"} and {detail:"text"}', () => {
    expect(decodeOpenAIError(400, '{"error":"bad model"}', {}).message).toBe('bad model');
    expect(decodeOpenAIError(422, '{"detail":"field required"}', {}).message).toBe('field required');
  });

  it('turns a refused upstream credential into a gateway-side error, not a client 401', () => {
    const error = decodeOpenAIError(401, '{"error":{"message":"Incorrect API key provided","type":"invalid_request_error","code":"invalid_api_key","param":null}}', {});
    expect(error.status).toBe(502);
  });
});
