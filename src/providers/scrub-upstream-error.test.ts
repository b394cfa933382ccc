import { describe, expect, it } from 'vitest';
import { upstreamStatusError } from '../errors/gateway-error.js';
import type { UpstreamTarget } from './provider-adapter.js';
import { scrubUpstreamError, scrubUpstreamText } from './scrub-upstream-error.js';

const target: UpstreamTarget = {
  providerName: 'inference-east',
  kind: 'openai-compatible',
  baseUrl: 'http://vllm.internal.example:8000/v1',
  apiKey: 'tok_0123456789abcdef',
  model: 'm',
  headers: { 'x-tenant-token': 'tenant-secret-42' },
};

describe('scrubbing an upstream error', () => {
  it('removes the credential, header values, the host with or without its port, URLs and addresses', () => {
    const text = scrubUpstreamText(
      'key tok_0123456789abcdef / tenant-secret-42 refused by VLLM.internal.example:8000 and vllm.internal.example (see https://vllm.internal.example:8000/docs, peer 10.1.2.3:443, [fe80::1]:80, sk-abcdefghijklmnop1234)',
      target,
    );
    for (const leaked of ['tok_0123456789abcdef', 'tenant-secret-42', 'internal.example', '8000', '10.1.2.3', 'fe80', 'sk-abcdefghijklmnop1234']) expect(text).not.toContain(leaked);
    expect(text).toContain('refused by [upstream host] and [upstream host]');
  });

  it("answers a 401 or 403 with the gateway's message naming the provider, keeping status and retry", () => {
    const refused = scrubUpstreamError(upstreamStatusError(401, 'Incorrect API key provided: tok_0123…'), target);
    expect(refused.message).toContain("'inference-east'");
    expect(refused.message).not.toContain('Incorrect');
    expect(refused).toMatchObject({ status: 502, code: 'upstream_error', retryable: true, upstreamStatus: 401 });
  });

  it('keeps the meaning and hints of other errors, capped in length', () => {
    const scrubbed = scrubUpstreamError(upstreamStatusError(429, `Rate limit reached for tok_0123456789abcdef. ${'x'.repeat(600)}`, { retryAfterSeconds: 3, upstreamType: 'rate_limit_error' }), target);
    expect(scrubbed.message.startsWith('Rate limit reached for [credential].')).toBe(true);
    expect(scrubbed.message.length).toBeLessThanOrEqual(501);
    expect(scrubbed).toMatchObject({ status: 429, retryAfterSeconds: 3, upstreamType: 'rate_limit_error', upstreamStatus: 429 });
  });
});
