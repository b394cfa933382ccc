import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/default-config.js';
import { insertKey } from '../support/admin-keys.js';
import { startFaultTcpProxy, type FaultTcpProxy } from '../support/fault-tcp-proxy.js';
import { faultReply, startScriptedUpstream, type ScriptedUpstream } from '../support/scripted-upstream/index.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { createPostgresTestDatabase, type PostgresTestDatabase } from '../support/postgres-test-database.js';
import { startS3ProtocolServer, s3ProtocolServerCredentials, type S3ProtocolServer } from '../support/s3-protocol-server.js';
import { temporaryContentDirectory } from '../support/video-jobs.js';

/**
 * The gateway's stores going away and coming back, through a TCP proxy that refuses or silences
 * them: PostgreSQL (key lookups answer 503 in the client's shape, /ready answers 503, ledger
 * entries wait and are written once it is back) and the S3 bucket (an image asked for by URL
 * answers 503). Nothing crashes, and everything works again without a restart.
 */

const adminUrl = process.env.TEST_POSTGRES_URL;

async function eventually(check: () => Promise<boolean>, timeoutMs = 8_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const readyStatus = async (gateway: TestGateway): Promise<number> => (await fetch(`${gateway.url}/ready`)).status;

describe.skipIf(adminUrl === undefined)('PostgreSQL unavailable', () => {
  let database: PostgresTestDatabase;
  let proxy: FaultTcpProxy;
  let upstream: ScriptedUpstream;
  let gateway: TestGateway;

  beforeAll(async () => {
    database = await createPostgresTestDatabase(adminUrl ?? '');
    const direct = new URL(database.url);
    proxy = await startFaultTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    const proxied = new URL(database.url);
    proxied.hostname = proxy.host;
    proxied.port = String(proxy.port);
    upstream = await startScriptedUpstream({ reply: faultReply({ kind: 'ok' }) });
    gateway = await startTestGateway({
      database: { url: proxied.toString(), connect_timeout_ms: 500, query_timeout_ms: 500 },
      providers: { chat: { type: 'openai-compatible', base_url: `${upstream.url}/v1` } },
      models: [{ id: 'gpt', routes: [{ provider: 'chat', model: 'gpt-4.1-nano' }] }],
    });
  });

  afterAll(async () => {
    await gateway?.close();
    await proxy?.close();
    await upstream?.close();
    await database?.drop();
  });

  const chat = (key: string) => new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: key, maxRetries: 0 }).chat.completions.create({ model: 'gpt', messages: [{ role: 'user', content: 'hi' }] });

  for (const fault of ['refused', 'silent'] as const) {
    it(`answers 503 in the client's shape while the database is ${fault}, keeps the ledger entries, and recovers`, async () => {
      // Looked up now, so in the gateway's key cache (5 s) through the outage below.
      const warmKey = (await insertKey(gateway.services.storage, `warm-${fault}`, false)).secret;
      await chat(warmKey);
      // Never looked up by the gateway, so not in its short-lived key cache.
      const coldKey = (await insertKey(gateway.services.storage, `cold-${fault}`, false)).secret;
      const upstreamBefore = upstream.requests.length;
      if (fault === 'refused') await proxy.refuse();
      else proxy.silence();

      const refused = (await chat(coldKey).catch((error: unknown) => error)) as InstanceType<typeof OpenAI.APIError>;
      expect(refused).toBeInstanceOf(OpenAI.APIError);
      expect(refused.status).toBe(503);
      expect(refused.code).toBe('database_unavailable');
      const anthropic = new Anthropic({ baseURL: gateway.url, apiKey: coldKey, maxRetries: 0 });
      const messagesRefusal = (await anthropic.messages.create({ model: 'gpt', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }).catch((error: unknown) => error)) as InstanceType<typeof Anthropic.APIError>;
      expect(messagesRefusal.status).toBe(503);
      expect(messagesRefusal.error).toMatchObject({ type: 'error', error: { type: 'overloaded_error' } });
      expect(upstream.requests.length).toBe(upstreamBefore);
      expect(await readyStatus(gateway)).toBe(503);

      // A key looked up a moment ago is still known: its call is served, and its entry waits.
      const served = await chat(warmKey);
      const requestId = served._request_id ?? '';
      expect(requestId).not.toBe('');

      await proxy.restore();
      await eventually(async () => (await readyStatus(gateway)) === 200);
      expect((await chat(coldKey)).choices.length).toBe(1);
      await eventually(async () => {
        await gateway.services.ledger.flush();
        const entries = await gateway.services.storage.ledger.list({ limit: 1_000 });
        return entries.some((entry) => entry.requestId === requestId);
      });
    });
  }
});

describe('the S3 bucket unavailable', () => {
  let s3: S3ProtocolServer;
  let proxy: FaultTcpProxy;
  let gateway: TestGateway;
  let client: OpenAI;

  beforeAll(async () => {
    s3 = await startS3ProtocolServer('fault-content');
    const endpoint = new URL(s3.endpoint);
    proxy = await startFaultTcpProxy({ host: endpoint.hostname, port: Number(endpoint.port) });
    gateway = await startTestGateway({
      ...defaultConfig({}),
      content: {
        dir: temporaryContentDirectory(),
        s3: {
          bucket: s3.bucket,
          endpoint: `http://${proxy.host}:${proxy.port}`,
          access_key_id: s3ProtocolServerCredentials.accessKeyId,
          secret_access_key: s3ProtocolServerCredentials.secretAccessKey,
          force_path_style: true,
          connect_timeout_ms: 500,
          request_timeout_ms: 1_000,
        },
      },
    });
    client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'any', maxRetries: 0 });
  });

  afterAll(async () => {
    await gateway?.close();
    await proxy?.close();
    await s3?.stop();
  });

  const imageByUrl = () => client.images.generate({ model: 'sim-image', prompt: 'a kite', size: '1024x1024', quality: 'low', response_format: 'url' });

  for (const fault of ['refused', 'silent'] as const) {
    it(`answers an image asked for by URL with 503 while the bucket is ${fault}, and recovers`, async () => {
      if (fault === 'refused') await proxy.refuse();
      else proxy.silence();
      const startedAt = Date.now();
      const refused = (await imageByUrl().catch((error: unknown) => error)) as InstanceType<typeof OpenAI.APIError>;
      expect(refused).toBeInstanceOf(OpenAI.APIError);
      expect(refused.status).toBe(503);
      expect(refused.code).toBe('content_store_unavailable');
      expect(Date.now() - startedAt).toBeLessThan(10_000);
      await gateway.services.ledger.flush();
      const [entry] = await gateway.services.storage.ledger.list({ limit: 1 });
      expect(entry?.requestId).toBe(refused.requestID);
      expect(entry?.status).toBe(503);
      expect(entry?.costNanoUsd).toBe(0n);

      await proxy.restore();
      const answer = await imageByUrl();
      const served = await fetch(answer.data?.[0]?.url ?? '');
      expect(served.status).toBe(200);
    });
  }
});
