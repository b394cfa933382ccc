import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fixtureChunks, readFixture, sseFromChunks } from '../support/fixtures.js';
import { startFakeVertex, type FakeVertex, type VertexModelCall } from '../support/fake-vertex.js';
import { startTestGateway, waitForLedgerEntry, type TestGateway } from '../support/gateway-harness.js';
import { recordedBodyWithPictures } from '../support/recorded-image-bodies.js';
import type { Reply } from '../support/scripted-upstream/index.js';
import { createTestServiceAccount } from '../support/test-service-account.js';
import { splitSse } from '../support/sse.js';

/**
 * Gemini, Claude and Imagen on Vertex AI, reached by the official clients through the gateway: the
 * fake Vertex answers only calls that bear a live token its fake token endpoint issued for the
 * service account's signed grant, on the configured project and location's model path.
 */
let vertex: FakeVertex;
let gateway: TestGateway;
let chat: OpenAI;
let messages: Anthropic;
let ledgerEntries = 0;

const project = 'switchyard-test';
const location = 'us-east5';
const modelPath = `/v1/projects/${project}/locations/${location}/publishers`;

beforeAll(async () => {
  vertex = await startFakeVertex({ project, location });
  gateway = await startTestGateway({
    providers: {
      vertex: { type: 'vertex', project, location, credentials_file: vertex.account.keyFile, base_url: vertex.url },
    },
    models: [
      { id: 'vertex-gemini', routes: [{ provider: 'vertex', model: 'gemini-2.5-flash' }], price: { input_per_mtok: '0.30', output_per_mtok: '2.50' } },
      { id: 'vertex-claude', routes: [{ provider: 'vertex', model: 'claude-sonnet-4-5@20250929' }], price: { input_per_mtok: '3.00', output_per_mtok: '15.00' } },
      { id: 'imagen-4.0-generate-001', output_modality: 'image', routes: [{ provider: 'vertex', model: 'imagen-4.0-generate-001' }] },
    ],
  });
  chat = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'open-access', maxRetries: 0 });
  messages = new Anthropic({ baseURL: gateway.url, apiKey: 'open-access', maxRetries: 0 });
});

afterAll(async () => {
  await gateway.close();
  await vertex.close();
});

beforeEach(() => {
  vertex.accepted.length = 0;
  vertex.upstream.requests.length = 0;
});

const recorded = (fixture: string): Reply => ({ body: readFixture(fixture) });
const streamed = (fixture: string, framing: 'data' | 'named'): Reply => ({ pieces: splitSse(sseFromChunks(fixtureChunks(fixture), framing)) });

function onlyCall(): VertexModelCall {
  expect(vertex.upstream.requests).toHaveLength(1);
  expect(vertex.accepted).toHaveLength(1);
  return vertex.accepted[0]!;
}

const weatherTool = { type: 'function' as const, function: { name: 'weather', parameters: { type: 'object', properties: { location: { type: 'string' } } } } };

describe('Gemini on Vertex AI', () => {
  it('answers a chat client from generateContent on the project\'s model path, with a bearer the token endpoint issued', async () => {
    vertex.answer(() => recorded('google/generate-content/google-text.json'));
    const completion = await chat.chat.completions.create({ model: 'vertex-gemini', messages: [{ role: 'user', content: 'How many r in strawberry?' }] });

    expect(completion.choices[0]?.message.content).toContain('strawberry');
    const call = onlyCall();
    expect(call.request.path).toBe(`${modelPath}/google/models/gemini-2.5-flash:generateContent`);
    expect(vertex.tokens.issued).toContain(String(call.request.headers.authorization).replace(/^Bearer /, ''));
    expect(call.request.headers['x-goog-api-key']).toBeUndefined();
    // Vertex requires every turn's role.
    expect(call.body.contents).toEqual([{ role: 'user', parts: [{ text: 'How many r in strawberry?' }] }]);
    const entry = await waitForLedgerEntry(gateway, ++ledgerEntries);
    expect(entry).toMatchObject({ model: 'vertex-gemini', inputUncached: 9, usageEstimated: false });
  });

  it('streams a recorded Vertex answer of parallel tool calls to a chat client from streamGenerateContent?alt=sse', async () => {
    vertex.answer(() => streamed('google/generate-content/google-stream-no-args-tool-call.chunks.txt', 'data'));
    const stream = chat.chat.completions.stream({ model: 'vertex-gemini', messages: [{ role: 'user', content: 'read the screens' }], tools: [weatherTool], stream_options: { include_usage: true } });
    const final = await stream.finalChatCompletion();

    const calls = (final.choices[0]?.message.tool_calls ?? []).filter((call) => call.type === 'function');
    expect(calls.map((call) => call.function.name)).toEqual(['read_theme', 'read_screen', 'read_screen', 'read_screen']);
    expect(final.choices[0]?.finish_reason).toBe('tool_calls');
    expect(final.usage).toMatchObject({ prompt_tokens: 249, completion_tokens: 241 });
    const call = onlyCall();
    expect(call.request.path).toBe(`${modelPath}/google/models/gemini-2.5-flash:streamGenerateContent?alt=sse`);
    expect(call.body.tools).toEqual([{ functionDeclarations: [expect.objectContaining({ name: 'weather' })] }]);
  });

  it('answers a Responses client, streamed', async () => {
    vertex.answer(() => streamed('google/generate-content/google-text.chunks.txt', 'data'));
    const stream = chat.responses.stream({ model: 'vertex-gemini', input: 'How many r in strawberry?' });
    const final = await stream.finalResponse();

    expect(final.output_text).toContain('There are **3**');
    expect(final.usage).toMatchObject({ input_tokens: 9, output_tokens: 208 });
    expect(onlyCall().method).toBe('streamGenerateContent');
  });

  it('answers a Messages client, translated', async () => {
    vertex.answer(() => recorded('google/generate-content/google-tool-call.json'));
    const answer = await messages.messages.create({
      model: 'vertex-gemini',
      max_tokens: 256,
      messages: [{ role: 'user', content: 'weather in San Francisco?' }],
      tools: [{ name: 'weather', input_schema: { type: 'object', properties: { location: { type: 'string' } } } }],
    });

    expect(answer.content.find((block) => block.type === 'tool_use')).toMatchObject({ name: 'weather', input: { location: 'San Francisco' } });
    expect(answer.stop_reason).toBe('tool_use');
    expect(onlyCall().method).toBe('generateContent');
  });
});

describe('Claude on Vertex AI', () => {
  it('passes a Messages client through to rawPredict with the Vertex version in the body and the model in the URL', async () => {
    vertex.answer(() => recorded('anthropic/messages/anthropic-text.json'));
    const answer = await messages.messages.create({ model: 'vertex-claude', max_tokens: 100, messages: [{ role: 'user', content: 'Hello' }] });

    expect(answer.content[0]).toMatchObject({ type: 'text', text: expect.stringContaining("Hello! I'm doing well") as string });
    const call = onlyCall();
    expect(call.request.path).toBe(`${modelPath}/anthropic/models/claude-sonnet-4-5@20250929:rawPredict`);
    expect(call.body).toEqual({ anthropic_version: 'vertex-2023-10-16', max_tokens: 100, messages: [{ role: 'user', content: 'Hello' }] });
    const entry = await waitForLedgerEntry(gateway, ++ledgerEntries);
    expect(entry).toMatchObject({ model: 'vertex-claude', inputUncached: 12, output: 29 });
  });

  it('streams a Messages client from streamRawPredict', async () => {
    vertex.answer(() => streamed('anthropic/messages/anthropic-text.chunks.txt', 'named'));
    const stream = messages.messages.stream({ model: 'vertex-claude', max_tokens: 100, messages: [{ role: 'user', content: 'Hello' }] });
    const final = await stream.finalMessage();

    expect(final.content[0]).toMatchObject({ type: 'text' });
    expect(final.usage.output_tokens).toBe(30);
    const call = onlyCall();
    expect(call.method).toBe('streamRawPredict');
    expect(call.body).toMatchObject({ anthropic_version: 'vertex-2023-10-16', stream: true });
    expect(call.body.model).toBeUndefined();
  });

  it('translates a chat client with tools to rawPredict', async () => {
    vertex.answer(() => recorded('anthropic/messages/anthropic-json-tool.1.json'));
    const completion = await chat.chat.completions.create({ model: 'vertex-claude', messages: [{ role: 'user', content: 'list the elements' }], tools: [weatherTool] });

    expect(completion.choices[0]?.finish_reason).toBe('tool_calls');
    expect(completion.choices[0]?.message.tool_calls?.[0]).toMatchObject({ function: { name: 'json' } });
    const call = onlyCall();
    expect(call.method).toBe('rawPredict');
    expect(call.body).toMatchObject({ anthropic_version: 'vertex-2023-10-16', tools: [expect.objectContaining({ name: 'weather' })] });
    expect(call.body.model).toBeUndefined();
  });

  it('streams a Responses client, translated', async () => {
    vertex.answer(() => streamed('anthropic/messages/anthropic-text.chunks.txt', 'named'));
    const final = await chat.responses.stream({ model: 'vertex-claude', input: 'Hello' }).finalResponse();

    expect(final.output_text).toContain('Hello');
    expect(onlyCall().method).toBe('streamRawPredict');
  });

  it('counts tokens at count-tokens:rawPredict with the upstream model named in the body', async () => {
    vertex.answer(() => ({ body: JSON.stringify({ input_tokens: 14 }) }));
    const count = await messages.messages.countTokens({ model: 'vertex-claude', messages: [{ role: 'user', content: 'Hello, Claude' }] });

    expect(count.input_tokens).toBe(14);
    const call = onlyCall();
    expect(call.request.path).toBe(`${modelPath}/anthropic/models/count-tokens:rawPredict`);
    expect(call.body).toMatchObject({ anthropic_version: 'vertex-2023-10-16', model: 'claude-sonnet-4-5@20250929' });
  });
});

describe('Imagen on Vertex AI', () => {
  it('generates images at the model\'s :predict on Vertex', async () => {
    const { body, pictures } = await recordedBodyWithPictures('google/images/google-vertex-image.json', { width: 1024, height: 1024 });
    vertex.answer(() => ({ body }));
    const answer = await chat.images.generate({ model: 'imagen-4.0-generate-001', prompt: 'a red disk', n: 2, response_format: 'b64_json' });

    expect(answer.data?.map((item) => item.b64_json)).toEqual(pictures.map((picture) => picture.base64));
    const call = onlyCall();
    expect(call.request.path).toBe(`${modelPath}/google/models/imagen-4.0-generate-001:predict`);
    expect(call.body).toMatchObject({ instances: [{ prompt: 'a red disk' }], parameters: { sampleCount: 2 } });
  });
});

describe('Vertex AI access tokens through the gateway', () => {
  it('takes a new token once the old one has expired, and Vertex accepts the call', async () => {
    const shortLived = await startFakeVertex({ project, location, tokenLifetimeSeconds: 2 });
    const own = await startTestGateway({
      providers: { vertex: { type: 'vertex', project, location, credentials_file: shortLived.account.keyFile, base_url: shortLived.url } },
      models: [{ id: 'vertex-gemini', routes: [{ provider: 'vertex', model: 'gemini-2.5-flash' }], price: { input_per_mtok: '0.30', output_per_mtok: '2.50' } }],
    });
    try {
      shortLived.answer(() => recorded('google/generate-content/google-text.json'));
      const client = new OpenAI({ baseURL: `${own.url}/v1`, apiKey: 'open-access', maxRetries: 0 });
      const ask = () => client.chat.completions.create({ model: 'vertex-gemini', messages: [{ role: 'user', content: 'hi' }] });
      await ask();
      await new Promise((resolve) => setTimeout(resolve, 2_200));
      const [first] = shortLived.tokens.issued;
      expect(shortLived.tokens.isLive(first!)).toBe(false);
      await ask();

      const bearers = shortLived.upstream.requests.map((request) => String(request.headers.authorization));
      expect(shortLived.upstream.requests.map((request) => request.answer.status)).toEqual([200, 200]);
      expect(bearers).toEqual(shortLived.tokens.issued.map((token) => `Bearer ${token}`));
      expect(shortLived.tokens.issued).toHaveLength(2);
      expect(own.logs()).not.toContain(shortLived.tokens.issued[0]);
      expect(own.logs()).not.toContain(shortLived.tokens.issued[1]);
    } finally {
      await own.close();
      await shortLived.close();
    }
  });

  it('replaces a token Vertex refuses before its expiry, so the next attempt is accepted', async () => {
    vertex.answer(() => recorded('google/generate-content/google-text.json'));
    await chat.chat.completions.create({ model: 'vertex-gemini', messages: [{ role: 'user', content: 'hi' }] });
    const refused = vertex.tokens.issued.at(-1)!;
    vertex.tokens.revoke(refused);

    const completion = await chat.chat.completions.create({ model: 'vertex-gemini', messages: [{ role: 'user', content: 'hi' }] });

    expect(completion.choices[0]?.message.content).toContain('strawberry');
    const bearers = vertex.upstream.requests.map((request) => String(request.headers.authorization).replace(/^Bearer /, ''));
    expect(bearers.slice(-2)).toEqual([refused, vertex.tokens.issued.at(-1)]);
    expect(vertex.tokens.issued.at(-1)).not.toBe(refused);
    expect(vertex.upstream.requests.at(-2)?.answer.status).toBe(401);
  });

  it('makes calls that start together wait for one token request', async () => {
    const cold = await startFakeVertex({ project, location });
    const own = await startTestGateway({
      providers: { vertex: { type: 'vertex', project, location, credentials_file: cold.account.keyFile, base_url: cold.url } },
      models: [{ id: 'vertex-gemini', routes: [{ provider: 'vertex', model: 'gemini-2.5-flash' }], price: { input_per_mtok: '0.30', output_per_mtok: '2.50' } }],
    });
    try {
      cold.answer(() => recorded('google/generate-content/google-text.json'));
      const client = new OpenAI({ baseURL: `${own.url}/v1`, apiKey: 'open-access', maxRetries: 0 });
      await Promise.all(Array.from({ length: 5 }, () => client.chat.completions.create({ model: 'vertex-gemini', messages: [{ role: 'user', content: 'hi' }] })));

      expect(cold.tokens.upstream.calls()).toBe(1);
      expect(cold.accepted).toHaveLength(5);
    } finally {
      await own.close();
      await cold.close();
    }
  });

  it('sends nothing to Vertex and charges nothing when the token endpoint refuses the service account', async () => {
    const refusing = await startFakeVertex({ project, location });
    // The endpoint holds another public key for the account: every grant's signature fails.
    refusing.tokens.trust(refusing.account.clientEmail, createTestServiceAccount(refusing.tokens.tokenUri).publicKey);
    const own = await startTestGateway({
      providers: { vertex: { type: 'vertex', project, location, credentials_file: refusing.account.keyFile, base_url: refusing.url } },
      models: [{ id: 'vertex-claude', routes: [{ provider: 'vertex', model: 'claude-sonnet-4-5@20250929' }], price: { input_per_mtok: '3.00', output_per_mtok: '15.00' } }],
    });
    try {
      const client = new Anthropic({ baseURL: own.url, apiKey: 'open-access', maxRetries: 0 });
      const failure = await client.messages.create({ model: 'vertex-claude', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }).catch((error: unknown) => error);

      expect(failure).toBeInstanceOf(Anthropic.APIError);
      expect((failure as InstanceType<typeof Anthropic.APIError>).status).toBe(502);
      expect((failure as InstanceType<typeof Anthropic.APIError>).error).toMatchObject({ type: 'error', error: { type: 'api_error' } });
      expect(refusing.upstream.requests).toEqual([]);
      await own.services.ledger.flush();
      const entries = await own.services.storage.ledger.list({ limit: 10 });
      expect(entries.every((entry) => entry.costNanoUsd === 0n)).toBe(true);
    } finally {
      await own.close();
      await refusing.close();
    }
  });
});
