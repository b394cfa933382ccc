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

describe('what scrubbing leaves alone and what it finds', () => {
  const shortHost = (hostname: string): UpstreamTarget => ({ ...target, baseUrl: `http://${hostname}:8000/v1`, headers: {} });

  it('replaces a short host only as a whole name, never inside words', () => {
    expect(scrubUpstreamText('rapid failure at api:8000, api down; see the api. docs', shortHost('api'))).toBe('rapid failure at [upstream host], [upstream host] down; see the [upstream host]. docs');
    expect(scrubUpstreamText('fulfillment by llm failed (llm-proxy, llm.internal)', shortHost('llm'))).toBe('fulfillment by [upstream host] failed (llm-proxy, llm.internal)');
  });

  it('removes unbracketed IPv6 addresses, internal host:port names, bearer tokens and JWTs', () => {
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJnYXRld2F5In0.c2lnbmF0dXJlX2hlcmU';
    const text = scrubUpstreamText(`connect ECONNREFUSED ::1:443; peer fd00::5 and 2001:db8:0:0:0:0:0:1; via lb.svc.cluster.local:8080 with Bearer abc.DEF-123_xyz and token ${jwt}`, target);
    for (const leaked of ['::1', 'fd00', '2001:db8', 'cluster.local', '8080', 'abc.DEF-123_xyz', jwt.slice(0, 20)]) expect(text).not.toContain(leaked);
    expect(text).toContain('Bearer [credential]');
  });

  it('leaves ordinary text with colons and dots as it is', () => {
    const ordinary = 'Error::Parse at 12:30:45 in std::vector and Face::Bad; see main.py:42 and e.g. section 3.2: retry in 2.5s; ratio 16:9; MAC aa:bb:cc:dd:ee:ff; Bearer authentication failed; llama3.1:70b';
    expect(scrubUpstreamText(ordinary, target)).toBe(ordinary);
  });

  it('takes secrets only from auth-like header names, so ordinary header values stay readable', () => {
    const withHeaders: UpstreamTarget = {
      ...target,
      headers: { 'anthropic-version': '2023-06-01', 'OpenAI-Beta': 'assistants=v2', 'X-Goog-Api-Key': 'goog-value-123', 'x-auth-scope': 'scope-secret-9', Authorization: 'Bearer bearer-value-77' },
    };
    const text = scrubUpstreamText('version 2023-06-01 with assistants=v2 refused goog-value-123, scope-secret-9 and bearer-value-77', withHeaders);
    expect(text).toBe('version 2023-06-01 with assistants=v2 refused [credential], [credential] and [credential]');
  });
});
