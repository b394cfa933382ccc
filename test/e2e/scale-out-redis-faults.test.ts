import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testRedisUrl } from '../../src/redis/redis.test-support.js';
import { startFaultTcpProxy, type FaultTcpProxy } from '../support/fault-tcp-proxy.js';
import type { TestGateway } from '../support/gateway-harness.js';
import { insertLimitedKey } from '../support/limited-keys.js';
import { startScaleOutCluster, type ScaleOutCluster } from '../support/scale-out-cluster.js';

/**
 * Two instances reaching Redis through a proxy that refuses, silences or stalls it: rate limits fail open
 * and budgets fail closed by default (the opposite on an instance configured so), a call never
 * waits on a silent Redis longer than the command timeout, and everything is enforced again
 * within seconds of Redis answering, without a restart.
 */

const postgresAdminUrl = process.env.TEST_POSTGRES_URL;
/** The cluster's `redis.command_timeout_ms`. */
const commandTimeoutMs = 300;
const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function statusOf(call: Promise<unknown>): Promise<{ status: number; error?: InstanceType<typeof OpenAI.APIError>; ms: number }> {
  const started = Date.now();
  try {
    await call;
    return { status: 200, ms: Date.now() - started };
  } catch (error) {
    if (error instanceof OpenAI.APIError) return { status: error.status ?? 0, error, ms: Date.now() - started };
    throw error;
  }
}

if (postgresAdminUrl === undefined || testRedisUrl === undefined) {
  describe.skip('scaled-out instances when Redis fails (TEST_POSTGRES_URL or TEST_REDIS_URL is not set; run under scripts/with-postgres.js and scripts/with-redis.js)', () => {
    it('skipped', () => undefined);
  });
} else {
  const redis = new URL(testRedisUrl);
  let proxy: FaultTcpProxy;
  let cluster: ScaleOutCluster;
  /** An instance with the fail modes swapped: limits closed, budgets open. */
  let swapped: TestGateway;

  beforeAll(async () => {
    proxy = await startFaultTcpProxy({ host: redis.hostname, port: Number(redis.port || 6379) });
    cluster = await startScaleOutCluster({ postgresAdminUrl, redisUrl: `redis://${proxy.host}:${proxy.port}` });
    swapped = await cluster.startInstance({ limits_fail_mode: 'closed', budgets_fail_mode: 'open' });
  }, 30_000);
  afterAll(async () => {
    await cluster?.close();
    await proxy?.close();
  });

  const chat = (gateway: TestGateway, secret: string) =>
    statusOf(cluster.client(gateway, secret).chat.completions.create({ model: 'sim-gpt', max_tokens: 20, messages: [{ role: 'user', content: '[words:2] go' }] }));
  const ready = async (gateway: TestGateway) => (await fetch(`${gateway.url}/ready`)).status;

  async function breakRedis(fault: 'refusing' | 'silent' | 'stalled'): Promise<void> {
    if (fault === 'refusing') await proxy.refuse();
    else if (fault === 'silent') proxy.silence();
    else proxy.stall();
  }

  /**
   * Calls until the key is answered with `wanted` (429 at its limit: Redis counts again; 200: served
   * again, each instance's Redis connection coming back on its own), or the time is up; how long it
   * took. `meanwhile`, when given, is the only other answer allowed on the way.
   */
  async function untilAnswered(gateway: TestGateway, secret: string, wanted: number, withinMs: number, meanwhile?: number): Promise<number> {
    const started = Date.now();
    while (Date.now() - started < withinMs) {
      const { status } = await chat(gateway, secret);
      if (status === wanted) return Date.now() - started;
      if (meanwhile !== undefined) expect(status).toBe(meanwhile);
      await delay(50);
    }
    throw new Error(`no ${wanted} within ${withinMs} ms of Redis coming back`);
  }

  /** Refusing: a stopped Redis. Silent: a hung one, new connections unanswered. Stalled: a hung one on connections that were answering. */
  for (const fault of ['refusing', 'silent', 'stalled'] as const) {
    describe(`with Redis ${fault}`, () => {
      it('let rate-limited keys through and refuse budgeted keys with 503 in the client’s shape, sending nothing upstream, by default', async () => {
        const [first, second] = cluster.gateways as [TestGateway, TestGateway];
        const limited = await insertLimitedKey(cluster.storage, { rpm: 2 });
        const budgeted = await insertLimitedKey(cluster.storage, { budgetNanoUsd: 10n ** 12n });
        await breakRedis(fault);
        try {
          // Well past rpm 2, over both instances: no 429 while limits fail open.
          const limitedCalls = [];
          for (let call = 0; call < 5; call += 1) limitedCalls.push(await chat(call % 2 === 0 ? first : second, limited.secret));
          expect(limitedCalls.map((call) => call.status)).toEqual([200, 200, 200, 200, 200]);
          const before = cluster.upstreamRequests();
          const refused = await chat(second, budgeted.secret);
          expect(refused.status).toBe(503);
          expect(refused.error?.message).toContain('budgets');
          expect(cluster.upstreamRequests()).toBe(before);
          // A silent Redis holds no call past the command timeout (plus a busy machine's slack).
          for (const call of [...limitedCalls, refused]) expect(call.ms).toBeLessThan(commandTimeoutMs + 1_200);
          expect(await ready(first)).toBe(503);
          const readiness = (await (await fetch(`${second.url}/ready`)).json()) as { error: { message: string } };
          expect(readiness.error.message).toContain('Redis');
        } finally {
          await proxy.restore();
        }
        const recoveredIn = await untilAnswered(first, limited.secret, 429, 8_000);
        expect(recoveredIn).toBeLessThan(5_000);
        // The other instance's connection recovers on its own schedule, within the same bound.
        expect(await untilAnswered(second, budgeted.secret, 200, 8_000, 503)).toBeLessThan(5_000);
        expect(await ready(first)).toBe(200);
        expect(await ready(second)).toBe(200);
      });

      it('refuse rate-limited keys with 503 and let budgeted keys through on an instance with the fail modes swapped', async () => {
        const limited = await insertLimitedKey(cluster.storage, { rpm: 2 });
        const budgeted = await insertLimitedKey(cluster.storage, { budgetNanoUsd: 10n ** 12n });
        await breakRedis(fault);
        try {
          const before = cluster.upstreamRequests();
          const refused = await chat(swapped, limited.secret);
          expect(refused.status).toBe(503);
          expect(refused.error?.message).toContain('rate limits');
          expect(refused.ms).toBeLessThan(commandTimeoutMs + 1_200);
          expect(cluster.upstreamRequests()).toBe(before);
          expect((await chat(swapped, budgeted.secret)).status).toBe(200);
          expect((await chat(swapped, budgeted.secret)).status).toBe(200);
          expect(await ready(swapped)).toBe(503);
        } finally {
          await proxy.restore();
        }
        const recoveredIn = await untilAnswered(swapped, limited.secret, 429, 8_000);
        expect(recoveredIn).toBeLessThan(5_000);
        expect(await ready(swapped)).toBe(200);
      });
    });
  }
}
