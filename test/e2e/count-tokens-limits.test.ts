import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ScriptedUpstream, startScriptedUpstream } from '../support/scripted-upstream/index.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { insertLimitedKey, startOfAFreshMinute } from '../support/limited-keys.js';

/** `count_tokens` reaches the upstream for an Anthropic route: each count is a call the key's rate limits must see. */

let gateway: TestGateway;
let upstream: ScriptedUpstream;

beforeAll(async () => {
  upstream = await startScriptedUpstream();
  upstream.reply({ body: JSON.stringify({ input_tokens: 7 }) });
  gateway = await startTestGateway({
    providers: { 'up-anthropic': { type: 'anthropic', base_url: upstream.url }, 'up-openai': { type: 'openai', base_url: upstream.url } },
    models: [
      { id: 'count-claude', routes: [{ provider: 'up-anthropic', model: 'claude-x' }], price: { input_per_mtok: '1.00', output_per_mtok: '2.00' } },
      // An upstream that cannot count Messages bodies: the gateway counts locally, and nothing is sent.
      { id: 'count-local', routes: [{ provider: 'up-openai', model: 'gpt-x' }], price: { input_per_mtok: '1.00', output_per_mtok: '2.00' } },
    ],
  });
});
afterAll(async () => {
  await gateway.close();
  await upstream.close();
});

const countRequest = { model: 'count-claude', messages: [{ role: 'user' as const, content: 'how many tokens is this?' }] };

describe('count_tokens on a key with a rate limit', () => {
  it('is admitted through the key limit: an rpm-1 key counts once, then gets 429 with retry-after, and the upstream sees one count', async () => {
    await startOfAFreshMinute();
    const { secret, id } = await insertLimitedKey(gateway.services.storage, { rpm: 1, budgetNanoUsd: 1n });
    const client = new Anthropic({ baseURL: gateway.url, apiKey: secret, maxRetries: 0 });
    const before = upstream.requests.length;
    const first = await client.messages.countTokens(countRequest).withResponse();
    expect(first.data.input_tokens).toBe(7);
    expect(first.response.headers.get('anthropic-ratelimit-requests-limit')).toBe('1');
    expect(first.response.headers.get('anthropic-ratelimit-requests-remaining')).toBe('0');
    const refused = await Promise.all(Array.from({ length: 5 }, () => client.messages.countTokens(countRequest).catch((error: unknown) => error)));
    for (const error of refused) {
      expect(error).toBeInstanceOf(Anthropic.RateLimitError);
      expect((error as InstanceType<typeof Anthropic.RateLimitError>).headers.get('retry-after')).toMatch(/^\d+$/);
      expect((error as InstanceType<typeof Anthropic.RateLimitError>).error).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' } });
    }
    expect(upstream.requests.length - before).toBe(1);
    // A count costs nothing: no budget is met (this key's is a nano-dollar) and nothing is recorded.
    await gateway.services.ledger.flush();
    expect(await gateway.services.storage.ledger.list({ keyId: id })).toEqual([]);
  });

  it('holds a concurrency slot while it runs', async () => {
    const { secret } = await insertLimitedKey(gateway.services.storage, { concurrency: 1 });
    upstream.reply({ delayMs: 500, body: JSON.stringify({ input_tokens: 7 }) });
    const client = new Anthropic({ baseURL: gateway.url, apiKey: secret, maxRetries: 0 });
    const slow = client.messages.countTokens(countRequest);
    await new Promise((resolve) => setTimeout(resolve, 150));
    const second = await client.messages.countTokens(countRequest).catch((error: unknown) => error);
    expect(second).toBeInstanceOf(Anthropic.RateLimitError);
    expect((await slow).input_tokens).toBe(7);
    // Its slot is freed when it ends.
    expect((await client.messages.countTokens(countRequest)).input_tokens).toBe(7);
    upstream.reply({ body: JSON.stringify({ input_tokens: 7 }) });
  });
});

describe('count_tokens counted locally on a key with rpm and tpm limits', () => {
  it('counts as one request and no tokens, carries the Anthropic rate-limit headers on every answer, and is refused with 429 once the minute is used', async () => {
    await startOfAFreshMinute();
    const { secret, id } = await insertLimitedKey(gateway.services.storage, { rpm: 3, tpm: 1000 });
    const client = new Anthropic({ baseURL: gateway.url, apiKey: secret, maxRetries: 0 });
    const before = upstream.requests.length;
    const first = await client.messages.countTokens({ ...countRequest, model: 'count-local' }).withResponse();
    expect(first.data.input_tokens).toBeGreaterThan(0);
    expect(first.response.headers.get('anthropic-ratelimit-requests-limit')).toBe('3');
    expect(first.response.headers.get('anthropic-ratelimit-requests-remaining')).toBe('2');
    expect(first.response.headers.get('anthropic-ratelimit-requests-reset')).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    // A count charges no tokens to the minute.
    expect(first.response.headers.get('anthropic-ratelimit-tokens-limit')).toBe('1000');
    expect(first.response.headers.get('anthropic-ratelimit-tokens-remaining')).toBe('1000');
    expect(first.response.headers.get('x-ratelimit-limit-requests')).toBeNull();
    // A body refused after admission still counts, and its error carries the headers.
    const refusedBody = await client.messages.countTokens({ model: 'count-local', messages: 'not a list' } as never).catch((error: unknown) => error);
    expect(refusedBody).toBeInstanceOf(Anthropic.BadRequestError);
    expect((refusedBody as InstanceType<typeof Anthropic.BadRequestError>).headers.get('anthropic-ratelimit-requests-remaining')).toBe('1');
    await client.messages.countTokens({ ...countRequest, model: 'count-local' });
    const limited = await client.messages.countTokens({ ...countRequest, model: 'count-local' }).catch((error: unknown) => error);
    expect(limited).toBeInstanceOf(Anthropic.RateLimitError);
    const refusal = limited as InstanceType<typeof Anthropic.RateLimitError>;
    expect(refusal.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(refusal.headers.get('anthropic-ratelimit-requests-remaining')).toBe('0');
    expect(upstream.requests.length - before).toBe(0);
    await gateway.services.ledger.flush();
    expect(await gateway.services.storage.ledger.list({ keyId: id })).toEqual([]);
  });
});
