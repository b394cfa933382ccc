import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/default-config.js';
import { type ScriptedUpstream, startScriptedUpstream } from '../support/scripted-upstream/index.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { insertLimitedKey, startOfAFreshMinute } from '../support/limited-keys.js';

let gateway: TestGateway;
let upstream: ScriptedUpstream;

beforeAll(async () => {
  upstream = await startScriptedUpstream();
  const config = defaultConfig({}) as { providers: Record<string, unknown>; models: unknown[] };
  gateway = await startTestGateway({
    ...config,
    providers: { ...config.providers, chatty: { type: 'openai', base_url: `${upstream.url}/v1` } },
    models: [...config.models, { id: 'chatty-gpt', routes: [{ provider: 'chatty', model: 'gpt-x' }], price: { input_per_mtok: '1.00', output_per_mtok: '2.00', effective_from: '2026-01-01' } }],
  });
});
afterAll(async () => {
  await gateway.close();
  await upstream.close();
});

const chatBody = (content: string, extra: Record<string, unknown> = {}) => JSON.stringify({ model: 'sim-gpt', messages: [{ role: 'user', content }], ...extra });

function post(path: string, secret: string, body: string): Promise<Response> {
  return fetch(`${gateway.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' }, body });
}

async function entriesOf(keyId: string) {
  await gateway.services.ledger.flush();
  return gateway.services.storage.ledger.list({ keyId });
}

describe('requests per minute', () => {
  it('counts down in the OpenAI headers on every answer, then answers 429 with retry-after in the chat shape', async () => {
    await startOfAFreshMinute();
    const { secret, id } = await insertLimitedKey(gateway.services.storage, { rpm: 2 });
    const first = await post('/v1/chat/completions', secret, chatBody('one'));
    expect(first.status).toBe(200);
    expect(first.headers.get('x-ratelimit-limit-requests')).toBe('2');
    expect(first.headers.get('x-ratelimit-remaining-requests')).toBe('1');
    expect(first.headers.get('x-ratelimit-reset-requests')).toMatch(/^(\d+ms|\d+s|1m0s)$/);
    expect(first.headers.get('x-ratelimit-limit-tokens')).toBeNull();
    const second = await post('/v1/chat/completions', secret, chatBody('two'));
    expect(second.headers.get('x-ratelimit-remaining-requests')).toBe('0');
    const refused = await post('/v1/chat/completions', secret, chatBody('three'));
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.headers.get('x-ratelimit-remaining-requests')).toBe('0');
    expect(refused.headers.get('x-ratelimit-limit-requests')).toBe('2');
    const body = (await refused.json()) as { error: { type: string; code: string; message: string } };
    expect(body.error).toMatchObject({ type: 'rate_limit_exceeded', code: 'rate_limit_exceeded' });
    expect(body.error.message).toContain('2 requests per minute');
    // The refused call was neither sent on nor charged.
    expect(await entriesOf(id)).toHaveLength(2);
  });

  it('refuses in the responses shape through the openai SDK', async () => {
    await startOfAFreshMinute();
    const { secret } = await insertLimitedKey(gateway.services.storage, { rpm: 1 });
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: secret, maxRetries: 0 });
    const ok = await client.responses.create({ model: 'sim-gpt', input: 'hi' }).withResponse();
    expect(ok.response.headers.get('x-ratelimit-remaining-requests')).toBe('0');
    const refused = await client.responses.create({ model: 'sim-gpt', input: 'again' }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenAI.RateLimitError);
    expect((refused as InstanceType<typeof OpenAI.RateLimitError>).headers?.get('retry-after')).toMatch(/^\d+$/);
  });

  it("uses Anthropic's headers, with RFC 3339 resets, and its error shape on /v1/messages", async () => {
    await startOfAFreshMinute();
    const { secret } = await insertLimitedKey(gateway.services.storage, { rpm: 1, tpm: 100_000 });
    const client = new Anthropic({ baseURL: gateway.url, apiKey: secret, maxRetries: 0 });
    const ok = await client.messages.create({ model: 'sim-claude', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] }).withResponse();
    expect(ok.response.headers.get('anthropic-ratelimit-requests-limit')).toBe('1');
    expect(ok.response.headers.get('anthropic-ratelimit-requests-remaining')).toBe('0');
    const reset = ok.response.headers.get('anthropic-ratelimit-requests-reset') ?? '';
    expect(reset).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(new Date(reset).getTime() - Date.now()).toBeLessThanOrEqual(60_000);
    expect(ok.response.headers.get('anthropic-ratelimit-tokens-limit')).toBe('100000');
    expect(ok.response.headers.get('x-ratelimit-limit-requests')).toBeNull();
    const refused = await client.messages.create({ model: 'sim-claude', max_tokens: 50, messages: [{ role: 'user', content: 'again' }] }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(Anthropic.RateLimitError);
    const error = (refused as InstanceType<typeof Anthropic.RateLimitError>).error as { type: string; error: { type: string } };
    expect(error).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' } });
  });
});

describe('tokens per minute', () => {
  it('admits while the window has tokens, charges reported usage, then refuses with the token headers', async () => {
    await startOfAFreshMinute();
    const { secret, id } = await insertLimitedKey(gateway.services.storage, { tpm: 30 });
    const first = await post('/v1/chat/completions', secret, chatBody('[words:40] long enough'));
    expect(first.status).toBe(200);
    expect(first.headers.get('x-ratelimit-limit-tokens')).toBe('30');
    expect(first.headers.get('x-ratelimit-remaining-tokens')).toBe('30');
    const usage = ((await first.json()) as { usage: { total_tokens: number } }).usage.total_tokens;
    expect(usage).toBeGreaterThan(30);
    // Usage is charged when the call has ended, a moment after the client has its answer.
    await entriesOf(id);
    const refused = await post('/v1/chat/completions', secret, chatBody('more'));
    expect(refused.status).toBe(429);
    expect(refused.headers.get('x-ratelimit-remaining-tokens')).toBe('0');
    expect(refused.headers.get('x-ratelimit-reset-tokens')).toMatch(/^(\d+ms|\d+s|1m0s)$/);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain('30 tokens per minute');
  });
});

describe('concurrent requests', () => {
  it('counts a stream until it ends and refuses a call beyond the limit meanwhile', async () => {
    const { secret } = await insertLimitedKey(gateway.services.storage, { concurrency: 1 });
    const stream = await post('/v1/chat/completions', secret, chatBody('[words:6] [pace:150] slow', { stream: true }));
    expect(stream.status).toBe(200);
    const refused = await post('/v1/chat/completions', secret, chatBody('meanwhile'));
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain('1 request in flight');
    expect(await stream.text()).toContain('[DONE]');
    // The slot is freed once the stream's end has been metered.
    let after = await post('/v1/chat/completions', secret, chatBody('after'));
    for (let tries = 0; after.status === 429 && tries < 20; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      after = await post('/v1/chat/completions', secret, chatBody('after'));
    }
    expect(after.status).toBe(200);
  });

  it('frees the slot of a call that failed', async () => {
    const { secret } = await insertLimitedKey(gateway.services.storage, { concurrency: 1 });
    const failed = await post('/v1/chat/completions', secret, chatBody('[error:400] bad'));
    expect(failed.status).toBe(400);
    expect((await post('/v1/chat/completions', secret, chatBody('next'))).status).toBe(200);
  });
});

describe("the upstream's own rate-limit headers", () => {
  it('never reach the client: a limited key sees the gateway figures, an unlimited one none', async () => {
    upstream.reply({
      contentType: 'application/json',
      headers: { 'x-ratelimit-limit-requests': '99999', 'x-ratelimit-remaining-requests': '99998', 'x-ratelimit-limit-tokens': '5000000' },
      body: JSON.stringify({ id: 'c1', object: 'chat.completion', created: 1, model: 'gpt-x', choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }], usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 } }),
    });
    const unlimited = await insertLimitedKey(gateway.services.storage, {});
    const plain = await post('/v1/chat/completions', unlimited.secret, JSON.stringify({ model: 'chatty-gpt', messages: [{ role: 'user', content: 'x' }] }));
    expect(plain.status).toBe(200);
    expect(plain.headers.get('x-ratelimit-limit-requests')).toBeNull();
    expect(plain.headers.get('x-ratelimit-limit-tokens')).toBeNull();
    await startOfAFreshMinute();
    const limited = await insertLimitedKey(gateway.services.storage, { rpm: 7 });
    const answer = await post('/v1/chat/completions', limited.secret, JSON.stringify({ model: 'chatty-gpt', messages: [{ role: 'user', content: 'x' }] }));
    expect(answer.headers.get('x-ratelimit-limit-requests')).toBe('7');
    expect(answer.headers.get('x-ratelimit-remaining-requests')).toBe('6');
    expect(answer.headers.get('x-ratelimit-limit-tokens')).toBeNull();
  });
});

describe('images and videos', () => {
  it('carry the headers and are refused like text calls', async () => {
    await startOfAFreshMinute();
    const { secret } = await insertLimitedKey(gateway.services.storage, { rpm: 1 });
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: secret, maxRetries: 0 });
    const image = await client.images.generate({ model: 'sim-image', prompt: 'a cat', size: '1024x1024' }).withResponse();
    expect(image.response.headers.get('x-ratelimit-remaining-requests')).toBe('0');
    const refused = await client.videos.create({ model: 'sim-video', prompt: 'a cat' }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenAI.RateLimitError);
  });
});
