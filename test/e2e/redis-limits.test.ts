import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configSchema } from '../../src/config/config-schema.js';
import { defaultConfig } from '../../src/config/default-config.js';
import { closedPort, closeRedis, freshKeyPrefix, OwnRedisServer, recordingLogger, testRedisClient, testRedisUrl } from '../../src/redis/redis.test-support.js';
import { startGateway, type RunningGateway } from '../../src/app/start-gateway.js';
import { openStorage } from '../../src/storage/open-storage.js';
import type { Storage } from '../../src/storage/ports.js';
import { insertLimitedKey, startOfAFreshMinute } from '../support/limited-keys.js';

/** A gateway on the shared database, with `redis` as given. */
async function gatewayWith(storage: Storage, redis: Record<string, unknown>): Promise<RunningGateway> {
  const config = configSchema.parse({ ...defaultConfig({}), database: { url: 'sqlite::memory:' }, server: { port: 0 }, redis, log: { level: 'warn' } });
  return startGateway(config, { storage, logger: recordingLogger().logger, logListening: false });
}

const chat = (gateway: RunningGateway, secret: string, content = '[words:3] go') =>
  fetch(`${gateway.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'sim-gpt', max_tokens: 100, messages: [{ role: 'user', content }] }),
  });

if (testRedisUrl === undefined) {
  describe.skip('gateways sharing limits through Redis (TEST_REDIS_URL is not set; run under scripts/with-redis.js)', () => {
    it('skipped', () => undefined);
  });
} else {
  const url = testRedisUrl;
  let storage: Storage;
  let gateways: RunningGateway[];

  beforeAll(async () => {
    storage = await openStorage('sqlite::memory:');
    const redis = { url, key_prefix: freshKeyPrefix() };
    gateways = [await gatewayWith(storage, redis), await gatewayWith(storage, redis)];
  });
  afterAll(async () => {
    await Promise.all(gateways.map((gateway) => gateway.close()));
    await storage.close();
  });

  describe('two gateways sharing one Redis', () => {
    it('are ready while Redis answers, and close their connection with the gateway', async () => {
      for (const gateway of gateways) expect((await fetch(`${gateway.url}/ready`)).status).toBe(200);
      const observer = await testRedisClient(url);
      try {
        const connections = async () => ((await observer.call('CLIENT', 'LIST')) as string).trim().split('\n').length;
        const before = await connections();
        const third = await gatewayWith(storage, { url, key_prefix: freshKeyPrefix() });
        expect(await connections()).toBe(before + 1);
        await third.close();
        expect(await connections()).toBe(before);
      } finally {
        await closeRedis(observer);
      }
    });

    it('count one key\'s requests per minute together, in the headers and the 429', async () => {
      await startOfAFreshMinute();
      const { secret } = await insertLimitedKey(storage, { rpm: 3 });
      const answers = [];
      for (let call = 0; call < 5; call += 1) answers.push(await chat(gateways[call % 2]!, secret));
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 429, 429]);
      expect(answers.slice(0, 3).map((answer) => answer.headers.get('x-ratelimit-remaining-requests'))).toEqual(['2', '1', '0']);
      expect(answers[4]!.headers.get('retry-after')).toMatch(/^\d+$/);
    });

    it('hold one key to its concurrency across both', async () => {
      const { secret } = await insertLimitedKey(storage, { concurrency: 2 });
      const answers = await Promise.all(Array.from({ length: 8 }, (_, call) => chat(gateways[call % 2]!, secret, '[delay:800] [words:3] go')));
      const statuses = answers.map((answer) => answer.status);
      expect(statuses.filter((status) => status === 200)).toHaveLength(2);
      expect(statuses.filter((status) => status === 429)).toHaveLength(6);
      // Both calls ended: their slots are free again on either gateway.
      expect((await chat(gateways[1]!, secret)).status).toBe(200);
    });

    it('never reserve past a budget between them, reservations in flight counted on both', async () => {
      // The sim models cost $1 per million input tokens and $2 per million output tokens; a text
      // call's worst case is every body byte an input token plus its output cap.
      const body = JSON.stringify({ model: 'sim-gpt', max_tokens: 100, messages: [{ role: 'user', content: '[delay:800] [words:3] go' }] });
      const worst = BigInt(Buffer.byteLength(body)) * 1_000n + 100n * 2_000n;
      const budget = worst * 3n + worst / 2n;
      const { secret, id } = await insertLimitedKey(storage, { budgetNanoUsd: budget });
      const answers = await Promise.all(Array.from({ length: 10 }, (_, call) => chat(gateways[call % 2]!, secret, '[delay:800] [words:3] go')));
      const statuses = answers.map((answer) => answer.status);
      // All ten arrive while the first three wait on the upstream: three worst cases fit, whichever gateway took them.
      expect(statuses.filter((status) => status === 200)).toHaveLength(3);
      expect(statuses.filter((status) => status === 402)).toHaveLength(7);
      await Promise.all(gateways.map((gateway) => gateway.services.ledger.flush()));
      const spent = (await storage.ledger.list({ keyId: id })).reduce((sum, entry) => sum + entry.costNanoUsd, 0n);
      expect(spent).toBeGreaterThan(0n);
      expect(spent).toBeLessThanOrEqual(budget);
      // Settled at their real cost, the three leave room for more on either gateway.
      expect((await chat(gateways[1]!, secret)).status).toBe(200);
    });
  });

  describe('a gateway whose Redis does not answer', () => {
    it('by default lets rate-limited keys through, refuses keys with a budget with 503 in the client\'s shape, and is not ready', async () => {
      const gateway = await gatewayWith(storage, { url: `redis://127.0.0.1:${await closedPort()}`, connect_timeout_ms: 200 });
      try {
        const limited = await insertLimitedKey(storage, { rpm: 1 });
        expect((await chat(gateway, limited.secret)).status).toBe(200);
        expect((await chat(gateway, limited.secret)).status).toBe(200);
        const budgeted = await insertLimitedKey(storage, { budgetNanoUsd: 10n ** 12n });
        const refused = await chat(gateway, budgeted.secret);
        expect(refused.status).toBe(503);
        expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('limits_unavailable');
        const messages = await fetch(`${gateway.url}/v1/messages`, {
          method: 'POST',
          headers: { 'x-api-key': budgeted.secret, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
          body: JSON.stringify({ model: 'sim-claude', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] }),
        });
        expect(messages.status).toBe(503);
        expect(((await messages.json()) as { type: string; error: { type: string } }).type).toBe('error');
        const ready = await fetch(`${gateway.url}/ready`);
        expect(ready.status).toBe(503);
        expect(((await ready.json()) as { error: { message: string } }).error.message).toContain('Redis');
      } finally {
        await gateway.close();
      }
    });

    it('serves again once Redis is back, without a restart', async () => {
      const server = new OwnRedisServer(await closedPort());
      await server.start();
      const gateway = await gatewayWith(storage, { url: server.url, key_prefix: freshKeyPrefix() });
      try {
        const budgeted = await insertLimitedKey(storage, { budgetNanoUsd: 10n ** 12n, rpm: 100 });
        const first = await chat(gateway, budgeted.secret);
        expect(first.status).toBe(200);
        expect(first.headers.get('x-ratelimit-remaining-requests')).toBe('99');
        await server.stop();
        expect((await chat(gateway, budgeted.secret)).status).toBe(503);
        expect((await fetch(`${gateway.url}/ready`)).status).toBe(503);
        await server.start();
        const deadline = Date.now() + 10_000;
        let answer = await chat(gateway, budgeted.secret);
        while (answer.status !== 200 && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          answer = await chat(gateway, budgeted.secret);
        }
        expect(answer.status).toBe(200);
        // A Redis without persistence came back empty: this minute counts afresh from it.
        expect(Number(answer.headers.get('x-ratelimit-remaining-requests'))).toBeGreaterThanOrEqual(97);
        expect((await fetch(`${gateway.url}/ready`)).status).toBe(200);
      } finally {
        await gateway.close();
        await server.remove();
      }
    });

    it('stays ready and lets everything through when both fail modes are open', async () => {
      const gateway = await gatewayWith(storage, { url: `redis://127.0.0.1:${await closedPort()}`, connect_timeout_ms: 200, limits_fail_mode: 'open', budgets_fail_mode: 'open' });
      try {
        const budgeted = await insertLimitedKey(storage, { budgetNanoUsd: 1n, rpm: 1 });
        expect((await chat(gateway, budgeted.secret)).status).toBe(200);
        expect((await fetch(`${gateway.url}/ready`)).status).toBe(200);
      } finally {
        await gateway.close();
      }
    });

    it('refuses rate-limited keys with 503 when limits fail closed', async () => {
      const gateway = await gatewayWith(storage, { url: `redis://127.0.0.1:${await closedPort()}`, connect_timeout_ms: 200, limits_fail_mode: 'closed' });
      try {
        const limited = await insertLimitedKey(storage, { rpm: 100 });
        expect((await chat(gateway, limited.secret)).status).toBe(503);
        const unlimited = await insertLimitedKey(storage, {});
        expect((await chat(gateway, unlimited.secret)).status).toBe(200);
      } finally {
        await gateway.close();
      }
    });
  });
}
