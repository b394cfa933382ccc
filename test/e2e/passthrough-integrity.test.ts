import http from 'node:http';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureChunks, readFixture, sseFromChunks } from '../support/fixtures.js';
import { type ScriptedUpstream, startScriptedUpstream } from '../support/scripted-upstream/index.js';
import { splitSse } from '../support/sse.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { insertApiKey } from '../support/insert-api-key.js';

const upstreamSecret = 'sk-upstream-secret-never-shown-1234567890';
let upstream: ScriptedUpstream;
let gateway: TestGateway;
let clientKey: string;

beforeAll(async () => {
  upstream = await startScriptedUpstream();
  gateway = await startTestGateway({
    providers: { compatible: { type: 'openai-compatible', base_url: `${upstream.url}/v1/`, api_key: upstreamSecret } },
    models: [
      { id: 'public-model', aliases: ['public-alias'], routes: [{ provider: 'compatible', model: 'vendor/upstream-model' }] },
      { id: 'same-name-upstream', routes: [{ provider: 'compatible', model: 'same-name-upstream' }] },
    ],
  });
  clientKey = await insertApiKey(gateway.services.storage, 'passthrough-test');
});

afterAll(async () => {
  await gateway.close();
  await upstream.close();
});

async function post(body: string): Promise<Response> {
  return fetch(`${gateway.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${clientKey}` },
    body,
  });
}

describe('chat passthrough', () => {
  it('forwards the body byte for byte except model, unknown fields included', async () => {
    upstream.reply({ body: readFixture('openai/chat/openai-text.json') });
    const body =
      '{ "model" : "public-alias", "messages":[{"role":"user","content":"hi","x_vendor_message_field":{"keep":true}}],' +
      '"x_unknown_top_level":[1,2,{"nested":"yes"}], "logit_bias":{"50256":-100}, "seed": 7 }';
    const response = await post(body);
    expect(response.status).toBe(200);
    const sent = upstream.requests.at(-1)!;
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.body).toBe(body.replace('"public-alias"', '"vendor/upstream-model"'));
  });

  it('forwards a body whose model needs no renaming exactly as received, non-ASCII text included', async () => {
    upstream.reply({ body: readFixture('openai/chat/openai-text.json') });
    const body = '{"model":"same-name-upstream",\n  "messages":[{"role":"user","content":"“quoted” café → ✓ \\u00e9 \\\\ done"}]}';
    const response = await post(body);
    expect(response.status).toBe(200);
    expect(upstream.requests.at(-1)!.body).toBe(body);
  });

  it('returns the upstream bytes unchanged, non-streamed and streamed', async () => {
    const recorded = readFixture('openai/chat/openai-text.json');
    upstream.reply({ body: recorded });
    const plain = await post(JSON.stringify({ model: 'public-model', messages: [{ role: 'user', content: 'hi' }] }));
    expect(await plain.text()).toBe(recorded);

    const sse = sseFromChunks(fixtureChunks('openai/chat/openai-text.chunks.txt'), 'data', true);
    upstream.reply({ pieces: splitSse(sse) });
    const streamed = await post(
      JSON.stringify({ model: 'public-model', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'hi' }] }),
    );
    expect(streamed.headers.get('content-type')).toContain('text/event-stream');
    expect(await streamed.text()).toBe(sse);
  });

  it('relays a stream larger than every buffer on the way to a client that stops reading for a while, byte for byte', async () => {
    const chunks = fixtureChunks('openai/chat/openai-text.chunks.txt');
    const contentEvents = sseFromChunks(chunks.slice(1, -3), 'data');
    // The recording's content events repeated to about 4 MB, in large pieces, then its real ending.
    const pieces = [sseFromChunks(chunks.slice(0, 1), 'data')];
    const repeatsPerPiece = Math.ceil(100_000 / contentEvents.length);
    for (let piece = 0; piece < 40; piece++) pieces.push(contentEvents.repeat(repeatsPerPiece));
    pieces.push(sseFromChunks(chunks.slice(-3), 'data', true));
    upstream.reply({ pieces });
    const body = JSON.stringify({ model: 'public-model', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'hi' }] });
    const received = await new Promise<string>((resolve, reject) => {
      const request = http.request(`${gateway.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${clientKey}` },
      }, (response) => {
        const parts: Buffer[] = [];
        response.on('data', (part: Buffer) => parts.push(part));
        response.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
        response.pause();
        setTimeout(() => response.resume(), 300);
      });
      request.on('error', reject);
      request.end(body);
    });
    expect(received.length).toBeGreaterThan(4_000_000);
    expect(received).toBe(pieces.join(''));
  });

  it('never sends the client key upstream, and never shows the upstream key to the client or the logs', async () => {
    upstream.reply({ status: 401, body: JSON.stringify({ error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } }) });
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: clientKey, maxRetries: 0 });
    const failure = await client.chat.completions.create({ model: 'public-model', messages: [{ role: 'user', content: 'hi' }] }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OpenAI.APIError);
    const apiError = failure as InstanceType<typeof OpenAI.APIError>;
    // The gateway's own upstream credential was refused: a gateway fault, not the client's.
    expect(apiError.status).toBe(502);
    expect(JSON.stringify(apiError.error)).not.toContain(upstreamSecret);
    expect(JSON.stringify(apiError.error)).not.toContain(upstream.url);

    upstream.reply({ body: readFixture('openai/chat/openai-text.json') });
    await client.chat.completions.create({ model: 'public-model', messages: [{ role: 'user', content: 'hi' }] });
    for (const request of upstream.requests) {
      expect(request.headers.authorization).toBe(`Bearer ${upstreamSecret}`);
      expect(JSON.stringify(request)).not.toContain(clientKey);
    }
    expect(gateway.logs().length).toBeGreaterThan(0);
    expect(gateway.logs()).not.toContain(upstreamSecret);
    expect(gateway.logs()).not.toContain(clientKey);
  });
});
