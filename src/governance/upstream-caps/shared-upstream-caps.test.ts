import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../errors/gateway-error.js';
import { closedPort, closeRedis, describeWithRedis, freshKeyPrefix, testOutage, testRedisClient } from '../../redis/redis.test-support.js';
import { SharedUpstreamCaps } from './shared-upstream-caps.js';
import { describeUpstreamCapsContract } from './upstream-caps-contract.test-support.js';

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describeWithRedis('redis upstream caps', (redis, url) => {
  describeUpstreamCapsContract('redis', () => new SharedUpstreamCaps(redis.first, { keyPrefix: freshKeyPrefix(), outage: testOutage('upstream caps', 'closed') }));

  describe('redis upstream caps across instances', () => {
    it('never hands out more slots than the cap from two instances asking at once', async () => {
      const keyPrefix = freshKeyPrefix();
      const instances = [redis.first, redis.second].map((client) => new SharedUpstreamCaps(client, { keyPrefix, outage: testOutage('upstream caps', 'closed') }));
      const slots = await Promise.all(Array.from({ length: 20 }, (_, index) => (instances[index % 2] as SharedUpstreamCaps).acquire('vendor', 3)));
      expect(slots.filter((slot) => slot !== undefined)).toHaveLength(3);
      const heldByEach = instances.map((caps) => caps.held().get('vendor') ?? 0);
      expect(heldByEach[0]! + heldByEach[1]!).toBe(3);
      for (const slot of slots) slot?.release();
      await delay(50);
      expect(await instances[1]!.acquire('vendor', 3)).toBeDefined();
    });

    it("frees a dead instance's slots once their lease ends, and keeps a live call's lease renewed", async () => {
      const keyPrefix = freshKeyPrefix();
      const crashed = await testRedisClient(url);
      const dying = new SharedUpstreamCaps(crashed, { keyPrefix, outage: testOutage('upstream caps', 'open'), leaseMs: 600 });
      const survivor = new SharedUpstreamCaps(redis.second, { keyPrefix, outage: testOutage('upstream caps', 'closed'), leaseMs: 600 });
      const live = await survivor.acquire('vendor', 2);
      expect(await dying.acquire('vendor', 2)).toBeDefined();
      crashed.disconnect();
      expect(await survivor.acquire('vendor', 2)).toBeUndefined();
      await delay(1_000);
      // The dead one's lease lapsed; the live one's was renewed and still counts.
      expect(await survivor.acquire('vendor', 2)).toBeDefined();
      expect(await survivor.acquire('vendor', 2)).toBeUndefined();
      live?.release();
    });
  });

  describe('redis upstream caps when redis does not answer', () => {
    it('lets calls through uncounted when open, refuses them with 503 when closed', async () => {
      const unreachable = await testRedisClient(`redis://127.0.0.1:${await closedPort()}`);
      try {
        const open = new SharedUpstreamCaps(unreachable, { keyPrefix: freshKeyPrefix(), outage: testOutage('upstream caps', 'open') });
        const slots = [await open.acquire('vendor', 1), await open.acquire('vendor', 1)];
        expect(slots.every((slot) => slot !== undefined)).toBe(true);
        expect(open.held().get('vendor')).toBe(2);
        for (const slot of slots) slot?.release();
        expect(open.held().get('vendor')).toBe(0);
        const closed = new SharedUpstreamCaps(unreachable, { keyPrefix: freshKeyPrefix(), outage: testOutage('upstream caps', 'closed') });
        const refusal = await closed.acquire('vendor', 1).catch((error: unknown) => error);
        expect(refusal).toBeInstanceOf(GatewayError);
        expect((refusal as GatewayError).status).toBe(503);
      } finally {
        await closeRedis(unreachable);
      }
    });
  });
});
