import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureChunks, readFixture, sseFromChunks } from '../support/fixtures.js';
import { closedPortUrl, startScriptedUpstream, type ScriptedUpstream } from '../support/scripted-upstream/index.js';
import { splitSse } from '../support/sse.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';

let primary: ScriptedUpstream;
let secondary: ScriptedUpstream;
let gateway: TestGateway;
let client: OpenAI;
let refusingUrl: string;
/** How long a stream the client left is still read for its usage. */
const usageWaitMs = 300;


beforeAll(async () => {
  primary = await startScriptedUpstream();
  secondary = await startScriptedUpstream();
  refusingUrl = await closedPortUrl();
  gateway = await startTestGateway({
    routing: { attempts_per_route: 2, backoff_ms: 5, usage_wait_after_disconnect_ms: usageWaitMs },
    providers: {
      refusing: { type: 'openai-compatible', base_url: `${refusingUrl}/v1` },
      primary: { type: 'openai-compatible', base_url: `${primary.url}/v1` },
      secondary: { type: 'anthropic', base_url: secondary.url, api_key: 'anthropic-upstream-key' },
    },
    models: [
      { id: 'refused-then-secondary', routes: [{ provider: 'refusing', model: 'm' }, { provider: 'secondary', model: 'claude' }] },
      { id: 'primary-then-secondary', routes: [{ provider: 'primary', model: 'm' }, { provider: 'secondary', model: 'claude' }] },
      { id: 'primary-only', routes: [{ provider: 'primary', model: 'm', timeout_ms: 300 }] },
    ],
  });
  client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'any', maxRetries: 0 });
});

afterAll(async () => {
  await gateway.close();
  await primary.close();
  await secondary.close();
});

const question = [{ role: 'user' as const, content: 'hello' }];

describe('fallback to the next route', () => {
  it('falls back when the first route refuses the connection', async () => {
    secondary.reply({ body: readFixture('anthropic/messages/anthropic-text.json') });
    const before = secondary.requests.length;
    const completion = await client.chat.completions.create({ model: 'refused-then-secondary', messages: question });
    expect(completion.choices[0]?.message.content).toContain("I'm doing well");
    expect(secondary.requests.length).toBe(before + 1);
  });

  it('retries a 503 on the same route, then falls back, streamed', async () => {
    primary.reply({ status: 503, body: '{"error":{"message":"overloaded","type":"server_error"}}' });
    const sse = sseFromChunks(fixtureChunks('anthropic/messages/anthropic-text.chunks.txt'), 'named');
    secondary.reply({ pieces: splitSse(sse) });
    const primaryBefore = primary.requests.length;
    const stream = client.chat.completions.stream({ model: 'primary-then-secondary', messages: question });
    const final = await stream.finalChatCompletion();
    expect(final.choices[0]?.message.content).toContain('Hello');
    expect(primary.requests.length).toBe(primaryBefore + 2);
  });

  it('does not fall back on a client error from the upstream', async () => {
    primary.reply({ status: 400, body: readFixture('openai/chat/reasoning-model-legacy-parameter-error.json') });
    const secondaryBefore = secondary.requests.length;
    const failure = await client.chat.completions.create({ model: 'primary-then-secondary', messages: question }).catch((error: unknown) => error);
    expect((failure as InstanceType<typeof OpenAI.APIError>).status).toBe(400);
    expect((failure as InstanceType<typeof OpenAI.APIError>).message).toContain('max_tokens');
    expect(secondary.requests.length).toBe(secondaryBefore);
  });

  it('answers 504 when the only route does not answer in time', async () => {
    primary.reply({ delayMs: 2_000, body: readFixture('openai/chat/openai-text.json') });
    const failure = await client.chat.completions.create({ model: 'primary-only', messages: question }).catch((error: unknown) => error);
    expect((failure as InstanceType<typeof OpenAI.APIError>).status).toBe(504);
  });
});

describe('client disconnects', () => {
  it('closes the upstream connection within a second of the wait for usage after a mid-stream abort', async () => {
    const chunks = fixtureChunks('openai/chat/openai-text.chunks.txt');
    primary.reply({ pieces: splitSse(sseFromChunks(chunks, 'data', true)), gapMs: 100 });
    const closedBefore = primary.closedEarly();
    const controller = new AbortController();
    const response = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'primary-only', stream: true, messages: question }),
      signal: controller.signal,
    });
    const reader = response.body!.getReader();
    await reader.read();
    await reader.read();
    controller.abort();
    const abortedAt = Date.now();
    while (primary.closedEarly() === closedBefore && Date.now() - abortedAt < usageWaitMs + 1_000) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(primary.closedEarly()).toBe(closedBefore + 1);
    // The stream still had 30 s to run: it was read on for its usage, then stopped.
    expect(Date.now() - abortedAt).toBeGreaterThanOrEqual(usageWaitMs - 50);
    expect(Date.now() - abortedAt).toBeLessThan(usageWaitMs + 1_000);
  });
});
