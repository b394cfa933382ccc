import { describe, expect, it } from 'vitest';
import { openAIResponsesAdapter } from '../openai-adapters.js';
import { readFixture } from '../../../../test/support/fixtures.js';

describe('Responses upstream errors', () => {
  it('keeps the quota error of the recorded 429 apart from a transient rate limit', () => {
    const error = openAIResponsesAdapter.decodeError(429, readFixture('openai/responses/openai-error.1.json'), {});
    expect(error).toMatchObject({ code: 'upstream_rate_limited', status: 429, upstreamType: 'insufficient_quota', retryable: true });
    expect(error.message).toMatch(/exceeded your current quota/);
  });

  it('passes the recorded temperature refusal on as a client error', () => {
    const error = openAIResponsesAdapter.decodeError(400, readFixture('openai/responses/reasoning-model-temperature-error.json'), {});
    expect(error).toMatchObject({ code: 'upstream_client_error', status: 400, upstreamType: 'invalid_request_error' });
    expect(error.message).toBe("Unsupported parameter: 'temperature' is not supported with this model.");
  });

  it('reads retry-after and hides a non-JSON body', () => {
    const error = openAIResponsesAdapter.decodeError(503, '<html>internal-host</html>', { 'Retry-After': '7' });
    expect(error).toMatchObject({ status: 503, retryAfterSeconds: 7 });
    expect(error.message).not.toContain('internal-host');
  });
});
