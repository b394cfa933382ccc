import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configSchema } from '../../src/config/config-schema.js';
import { freshKeyPrefix, recordingLogger, testRedisUrl } from '../../src/redis/redis.test-support.js';
import { startGateway, type RunningGateway } from '../../src/app/start-gateway.js';
import { openStorage } from '../../src/storage/open-storage.js';
import type { Storage } from '../../src/storage/ports.js';
import { type ReceivedRequest, type ScriptedUpstream, startScriptedUpstream } from '../support/scripted-upstream/index.js';
import { insertLimitedKey } from '../support/limited-keys.js';

/** The worst case of a chat call with `n` choices, reserved across two gateways that share their budgets through Redis. */

const price = { input_per_mtok: '1.00', output_per_mtok: '2.00', effective_from: '2026-01-01' };
/** $0.01. */
const budget = 10_000_000n;

/** An OpenAI chat answer with `n` choices of the cap's length each, billed for all of them, after a pause. */
function chatChoicesReply(request: ReceivedRequest) {
  const body = JSON.parse(request.body) as { n?: number; max_completion_tokens?: number };
  const n = body.n ?? 1;
  const cap = body.max_completion_tokens ?? 16;
  const choices = Array.from({ length: n }, (_, index) => ({ index, message: { role: 'assistant', content: 'word' }, finish_reason: 'length' }));
  return { delayMs: 400, body: JSON.stringify({ id: 'chatcmpl-n', object: 'chat.completion', created: 1, model: 'gpt-x', choices, usage: { prompt_tokens: 20, completion_tokens: n * cap, total_tokens: 20 + n * cap } }) };
}

if (testRedisUrl === undefined) {
  describe.skip('output caps across gateways sharing Redis (TEST_REDIS_URL is not set; run under scripts/with-redis.js)', () => {
    it('skipped', () => undefined);
  });
} else {
  const url = testRedisUrl;
  let storage: Storage;
  let upstream: ScriptedUpstream;
  let gateways: RunningGateway[];

  beforeAll(async () => {
    storage = await openStorage('sqlite::memory:');
    upstream = await startScriptedUpstream();
    upstream.reply(chatChoicesReply);
    const redis = { url, key_prefix: freshKeyPrefix() };
    const config = configSchema.parse({
      database: { url: 'sqlite::memory:' },
      server: { port: 0 },
      redis,
      log: { level: 'warn' },
      providers: { 'up-choices': { type: 'openai', base_url: `${upstream.url}/v1` } },
      models: [{ id: 'choices-gpt', routes: [{ provider: 'up-choices', model: 'gpt-x' }], price }],
    });
    gateways = [];
    for (let index = 0; index < 2; index += 1) gateways.push(await startGateway(config, { storage, logger: recordingLogger().logger, logListening: false }));
  });
  afterAll(async () => {
    await Promise.all(gateways.map((gateway) => gateway.close()));
    await upstream.close();
    await storage.close();
  });

  describe('two gateways sharing one Redis', () => {
    it('reserve every one of n choices, so concurrent calls with n = 2 on a $0.01 key stay within it', async () => {
      const { secret, id } = await insertLimitedKey(storage, { budgetNanoUsd: budget });
      const clients = gateways.map((gateway) => new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: secret, maxRetries: 0 }));
      for (const client of clients) await client.models.list();
      const asked = { model: 'choices-gpt', n: 2, max_completion_tokens: 1_000, messages: [{ role: 'user' as const, content: 'two takes, please' }] };
      const worst = BigInt(Buffer.byteLength(JSON.stringify(asked))) * 1_000n + 2n * 1_000n * 2_000n;
      const statuses = await Promise.all(
        Array.from({ length: 8 }, (_, index) => clients[index % 2]!.chat.completions.create(asked).then(() => 200, (error: InstanceType<typeof OpenAI.APIError>) => error.status)),
      );
      expect(statuses.filter((status) => status === 200)).toHaveLength(Number(budget / worst));
      expect(statuses.filter((status) => status === 402)).toHaveLength(8 - Number(budget / worst));
      await Promise.all(gateways.map((gateway) => gateway.services.ledger.flush()));
      const entries = await storage.ledger.list({ keyId: id });
      for (const entry of entries) expect(entry).toMatchObject({ inputUncached: 20, output: 2_000, usageEstimated: false, costNanoUsd: 20n * 1_000n + 2_000n * 2_000n });
      expect(entries.reduce((sum, entry) => sum + entry.costNanoUsd, 0n)).toBeLessThanOrEqual(budget);
    });
  });
}
