import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI, { APIError } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/default-config.js';
import { apiKeyRecord } from '../../src/keys/api-key-record.js';
import { displayPrefix, hashApiKey, mintApiKeySecret, mintKeyId } from '../../src/keys/api-key-secret.js';
import { parsePrometheusText, samplesOf, sumOf, type PrometheusSample } from '../../src/observability/prometheus-samples.test-support.js';
import { createRequestListener } from '../../src/app/request-listener.js';
import type { LedgerEntry } from '../../src/metering/ledger-entry.js';
import type { Storage } from '../../src/storage/ports.js';
import { startTestGateway, waitForLedgerEntry, type TestGateway } from '../support/gateway-harness.js';
import { insertApiKey } from '../support/insert-api-key.js';
import { closedPortUrl } from '../support/scripted-upstream/index.js';
import { pollUntilDone, quickVideoSettings, temporaryContentDirectory } from '../support/video-jobs.js';

/**
 * `GET /metrics` and `GET /ready` end to end: calls made through the real `openai` SDK against the
 * built-in simulator show up in the scrape exactly as the ledger has them.
 */

async function scrape(gateway: TestGateway, headers: Record<string, string> = {}): Promise<PrometheusSample[]> {
  const response = await fetch(`${gateway.url}/metrics`, { headers });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
  expect(response.headers.get('x-request-id')).toBeTruthy();
  return parsePrometheusText(await response.text());
}

async function ledgerEntries(gateway: TestGateway): Promise<LedgerEntry[]> {
  await gateway.services.ledger.flush();
  return gateway.services.storage.ledger.list({ limit: 1_000 });
}

const tokenBuckets = [
  ['input_uncached', 'inputUncached'],
  ['cache_read', 'cacheRead'],
  ['cache_write', 'cacheWrite'],
  ['output', 'output'],
  ['reasoning', 'reasoning'],
] as const;

describe('GET /metrics against the simulator, with metrics.public: true', () => {
  let gateway: TestGateway;
  let client: OpenAI;

  beforeAll(async () => {
    // Open access (no key) for the calls, so the scrapes here need the public endpoint.
    gateway = await startTestGateway({ ...defaultConfig({}), metrics: { public: true }, videos: quickVideoSettings, content: { dir: temporaryContentDirectory() } });
    client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'unused-open-access', maxRetries: 0 });
  });
  afterAll(async () => {
    await gateway.close();
  });

  it('counts chat calls (streamed and not), an image and a video job as the ledger has them', async () => {
    // The video job first: its state gauge is counted at the first scrape and kept a few seconds.
    const created = await client.videos.create({ model: 'sim-video', prompt: 'a lighthouse [video-ms:300]', seconds: '4', size: '1280x720' });
    expect((await pollUntilDone(client, created.id)).video.status).toBe('completed');
    await client.chat.completions.create({ model: 'sim-gpt', messages: [{ role: 'user', content: 'hello there' }] });
    await client.chat.completions.create({ model: 'sim-gpt', messages: [{ role: 'user', content: 'think first [think]' }] });
    const stream = client.chat.completions.stream({ model: 'sim-claude', messages: [{ role: 'user', content: 'stream me please' }], stream_options: { include_usage: true } });
    expect((await stream.finalChatCompletion()).usage?.total_tokens).toBeGreaterThan(0);
    await client.images.generate({ model: 'sim-image', prompt: 'a lighthouse at dusk', size: '1024x1024', quality: 'low' });
    await waitForLedgerEntry(gateway, 5);

    const samples = await scrape(gateway);
    const entries = await ledgerEntries(gateway);
    expect(entries).toHaveLength(5);
    expect(sumOf(samples, 'switchyard_requests_total', { model: 'sim-gpt', provider: 'sim-openai', endpoint: 'chat', status_class: '2xx' })).toBe(2);
    expect(sumOf(samples, 'switchyard_requests_total', { model: 'sim-claude', provider: 'sim-anthropic', endpoint: 'chat', status_class: '2xx' })).toBe(1);
    expect(sumOf(samples, 'switchyard_requests_total', { model: 'sim-image', endpoint: 'images', status_class: '2xx' })).toBe(1);
    expect(sumOf(samples, 'switchyard_requests_total', { model: 'sim-video', endpoint: 'videos', status_class: '2xx' })).toBe(1);
    expect(sumOf(samples, 'switchyard_requests_total')).toBe(entries.length);
    expect(sumOf(samples, 'switchyard_request_duration_seconds_count')).toBe(entries.length);

    for (const model of ['sim-gpt', 'sim-claude', 'sim-image']) {
      const ofModel = entries.filter((entry) => entry.model === model);
      for (const [kind, field] of tokenBuckets) {
        const fromLedger = ofModel.reduce((total, entry) => total + entry[field], 0);
        expect(sumOf(samples, 'switchyard_tokens_total', { model, kind }), `${model} ${kind}`).toBe(fromLedger);
      }
    }
    expect(sumOf(samples, 'switchyard_tokens_total', { model: 'sim-gpt', kind: 'reasoning' })).toBeGreaterThan(0);
    const ledgerCostUsd = Number(entries.reduce((total, entry) => total + entry.costNanoUsd, 0n)) / 1e9;
    expect(sumOf(samples, 'switchyard_cost_usd_total')).toBeCloseTo(ledgerCostUsd, 9);
    expect(sumOf(samples, 'switchyard_cost_usd_total', { model: 'sim-video', endpoint: 'videos' })).toBeCloseTo(0.4, 9);
    expect(sumOf(samples, 'switchyard_images_total', { model: 'sim-image' })).toBe(1);
    expect(sumOf(samples, 'switchyard_video_seconds_total', { model: 'sim-video' })).toBe(4);
    expect(sumOf(samples, 'switchyard_streams_in_flight')).toBe(0);
    expect(sumOf(samples, 'switchyard_video_jobs', { state: 'completed' })).toBe(1);
    expect(sumOf(samples, 'switchyard_video_jobs', { state: 'queued' })).toBe(0);
    expect(samplesOf(samples, 'switchyard_process_resident_memory_bytes')).toHaveLength(1);
  });

  it('holds a stream in flight while it is delivered and lets it go when it ends', async () => {
    const before = await ledgerEntries(gateway);
    const stream = await client.chat.completions.create({ model: 'sim-gpt', messages: [{ role: 'user', content: 'slowly [pace:150] [words:8]' }], stream: true });
    const chunks = stream[Symbol.asyncIterator]();
    await chunks.next();
    expect(sumOf(await scrape(gateway), 'switchyard_streams_in_flight', { endpoint: 'chat' })).toBe(1);
    for (let next = await chunks.next(); next.done !== true; next = await chunks.next());
    await waitForLedgerEntry(gateway, before.length + 1);
    expect(sumOf(await scrape(gateway), 'switchyard_streams_in_flight', { endpoint: 'chat' })).toBe(0);
  });

  it('counts each failed upstream attempt by provider, model and error code', async () => {
    const failed = await client.chat.completions.create({ model: 'sim-gpt', messages: [{ role: 'user', content: 'fail please [error:503]' }] }).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(APIError);
    expect((failed as APIError).status).toBe(503);
    const errors = samplesOf(await scrape(gateway), 'switchyard_upstream_errors_total');
    // Two attempts on the one route (routing.attempts_per_route defaults to 2).
    expect(errors).toEqual([{ name: 'switchyard_upstream_errors_total', labels: { provider: 'sim-openai', model: 'sim-gpt', code: 'upstream_unavailable' }, value: 2 }]);
    // The call itself is on the record (at no cost), so it counts as one request that failed.
    await ledgerEntries(gateway);
    expect(sumOf(await scrape(gateway), 'switchyard_requests_total', { model: 'sim-gpt', endpoint: 'chat', status_class: '5xx' })).toBe(1);
  });

  it('labels models with public catalog ids, never what the client sent', async () => {
    const before = (await ledgerEntries(gateway)).length;
    await client.chat.completions.create({ model: 'sim', messages: [{ role: 'user', content: 'by alias' }] });
    const unknown = await client.chat.completions.create({ model: 'no-such-model-x1', messages: [{ role: 'user', content: 'hi' }] }).catch((error: unknown) => error);
    expect((unknown as APIError).status).toBe(404);
    expect((await waitForLedgerEntry(gateway, before + 1)).model).toBe('sim-gpt');
    const text = await (await fetch(`${gateway.url}/metrics`)).text();
    // The three calls before this test (one of them failed) and the one by alias.
    expect(sumOf(parsePrometheusText(text), 'switchyard_requests_total', { model: 'sim-gpt', endpoint: 'chat' })).toBe(5);
    expect(text).not.toContain('no-such-model-x1');
    expect(text).not.toContain('model="sim"');
  });

  it('answers HEAD like GET, without a body, and ignores query parameters', async () => {
    const head = await fetch(`${gateway.url}/metrics`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(await head.text()).toBe('');
    expect(samplesOf(await scrape(gateway, {}), 'switchyard_video_jobs')).toHaveLength(5);
    const withQuery = await fetch(`${gateway.url}/metrics?name[]=switchyard_requests_total&limit=-1`);
    expect(withQuery.status).toBe(200);
    expect((await fetch(`${gateway.url}/ready`, { method: 'HEAD' })).status).toBe(200);
  });

  it('answers 405 to other methods, with the allowed ones', async () => {
    const response = await fetch(`${gateway.url}/metrics`, { method: 'POST' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD');
    expect(await response.json()).toMatchObject({ error: { code: 'method_not_allowed' } });
  });
});

describe('GET /metrics when a first route refuses connections', () => {
  let gateway: TestGateway;
  let client: OpenAI;

  beforeAll(async () => {
    const base = defaultConfig({}) as { providers: Record<string, unknown>; models: { id: string; routes: unknown[] }[] };
    const refusingRoute = (model: string) => ({ provider: 'refusing', model });
    gateway = await startTestGateway({
      ...base,
      providers: { ...base.providers, refusing: { type: 'openai', base_url: `${await closedPortUrl()}/v1`, api_key: 'unused' } },
      models: base.models.map((model) => (['sim-gpt', 'sim-image', 'sim-video'].includes(model.id) ? { ...model, routes: [refusingRoute(model.id), ...model.routes] } : model)),
      routing: { attempts_per_route: 2, backoff_ms: 5 },
      metrics: { public: true },
      videos: quickVideoSettings,
      content: { dir: temporaryContentDirectory() },
    });
    client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'unused-open-access', maxRetries: 0 });
  });
  afterAll(async () => {
    await gateway.close();
  });

  it('counts every refused attempt of text, image and video submits, and the calls the next route served', async () => {
    await client.chat.completions.create({ model: 'sim-gpt', messages: [{ role: 'user', content: 'hello' }] });
    await client.images.generate({ model: 'sim-image', prompt: 'a lighthouse', size: '1024x1024', quality: 'low' });
    const created = await client.videos.create({ model: 'sim-video', prompt: 'a lighthouse [video-ms:300]', seconds: '4', size: '1280x720' });
    expect((await pollUntilDone(client, created.id)).video.status).toBe('completed');
    await waitForLedgerEntry(gateway, 3);
    const samples = await scrape(gateway);
    for (const model of ['sim-gpt', 'sim-image', 'sim-video']) {
      expect(samplesOf(samples, 'switchyard_upstream_errors_total', { model }), model).toEqual([
        { name: 'switchyard_upstream_errors_total', labels: { provider: 'refusing', model, code: 'upstream_connect_failed' }, value: 2 },
      ]);
      expect(sumOf(samples, 'switchyard_requests_total', { model, provider: 'sim-openai', status_class: '2xx' }), model).toBe(1);
    }
  });
});

describe('GET /ready', () => {
  it('is 200 while the database answers, and 503 from the moment close begins', async () => {
    const gateway = await startTestGateway(defaultConfig({}));
    const ready = await fetch(`${gateway.url}/ready`);
    expect(ready.status).toBe(200);
    expect(ready.headers.get('x-request-id')).toBeTruthy();
    expect(await ready.json()).toEqual({ status: 'ready' });
    const health = await fetch(`${gateway.url}/health`);
    expect(health.status).toBe(200);

    // The gateway's own socket closes during close(); a second listener over the same services
    // answers as the gateway's would while its workers wind down.
    const side = await listenOn(createRequestListener(gateway.services));
    try {
      expect((await fetch(`${side.url}/ready`)).status).toBe(200);
      const closing = gateway.close();
      const notReady = await fetch(`${side.url}/ready`);
      expect(notReady.status).toBe(503);
      const body = (await notReady.json()) as { error: { code: string; message: string; type: string } };
      expect(body.error).toMatchObject({ code: 'not_ready', message: 'The gateway is shutting down.', type: 'api_error' });
      await closing;
    } finally {
      await side.close();
    }
  });

  it('is 503 while the database does not answer', async () => {
    const gateway = await startTestGateway(defaultConfig({}));
    try {
      await gateway.services.storage.close();
      const notReady = await fetch(`${gateway.url}/ready`);
      expect(notReady.status).toBe(503);
      expect(await notReady.json()).toMatchObject({ error: { code: 'not_ready', message: 'The database does not answer.' } });
    } finally {
      await gateway.close();
    }
  });

  it('answers 405 to other methods', async () => {
    const gateway = await startTestGateway(defaultConfig({}));
    try {
      const response = await fetch(`${gateway.url}/ready`, { method: 'DELETE' });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('GET, HEAD');
    } finally {
      await gateway.close();
    }
  });
});

describe('GET /metrics by default: an admin key is required', () => {
  let gateway: TestGateway;
  let adminKey: string;
  let plainKey: string;

  beforeAll(async () => {
    gateway = await startTestGateway(defaultConfig({}));
    adminKey = await insertAdminKey(gateway.services.storage);
    plainKey = await insertApiKey(gateway.services.storage, 'not an admin');
    // Something spent, so a scrape would show it.
    await new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: plainKey, maxRetries: 0 }).chat.completions.create({ model: 'sim-gpt', messages: [{ role: 'user', content: 'spend' }] });
    await waitForLedgerEntry(gateway, 1);
  });
  afterAll(async () => {
    await gateway.close();
  });

  it('refuses a scrape without a key (401), showing no spend', async () => {
    const response = await fetch(`${gateway.url}/metrics`);
    expect(response.status).toBe(401);
    const text = await response.text();
    expect(JSON.parse(text)).toMatchObject({ error: { type: 'authentication_error' } });
    expect(text).not.toContain('switchyard_cost_usd_total');
    expect((await fetch(`${gateway.url}/metrics`, { method: 'HEAD' })).status).toBe(401);
  });

  it('refuses an unknown key (401)', async () => {
    const response = await fetch(`${gateway.url}/metrics`, { headers: { authorization: `Bearer ${mintApiKeySecret()}` } });
    expect(response.status).toBe(401);
  });

  it('refuses a key that is not an admin key (403)', async () => {
    const response = await fetch(`${gateway.url}/metrics`, { headers: { authorization: `Bearer ${plainKey}` } });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ error: { type: 'permission_error', code: 'permission_denied' } });
  });

  it('serves an admin key, by Bearer (as Prometheus sends it) or x-api-key', async () => {
    const scraped = await scrape(gateway, { authorization: `Bearer ${adminKey}` });
    expect(sumOf(scraped, 'switchyard_cost_usd_total', { model: 'sim-gpt' })).toBeGreaterThan(0);
    expect(samplesOf(scraped, 'switchyard_video_jobs')).toHaveLength(5);
    expect(samplesOf(await scrape(gateway, { 'x-api-key': adminKey }), 'switchyard_streams_in_flight').length).toBeGreaterThan(0);
  });

  it('leaves /ready and /health public', async () => {
    expect((await fetch(`${gateway.url}/ready`)).status).toBe(200);
    expect((await fetch(`${gateway.url}/health`)).status).toBe(200);
  });

  it('stays closed while no key exists: open access does not open /metrics', async () => {
    const fresh = await startTestGateway(defaultConfig({}));
    try {
      await new OpenAI({ baseURL: `${fresh.url}/v1`, apiKey: 'any', maxRetries: 0 }).chat.completions.create({ model: 'sim-gpt', messages: [{ role: 'user', content: 'keyless' }] });
      expect((await fetch(`${fresh.url}/metrics`)).status).toBe(401);
    } finally {
      await fresh.close();
    }
  });
});

async function insertAdminKey(storage: Storage): Promise<string> {
  const secret = mintApiKeySecret();
  await storage.keys.insert(apiKeyRecord({ id: mintKeyId(), name: 'operator', prefix: displayPrefix(secret), hash: hashApiKey(secret), admin: true, createdAt: new Date() }));
  return secret;
}


async function listenOn(listener: ReturnType<typeof createRequestListener>): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
