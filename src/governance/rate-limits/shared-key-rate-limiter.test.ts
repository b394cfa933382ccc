import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../errors/gateway-error.js';
import { closedPort, describeWithRedis, freshKeyPrefix, OwnRedisServer, recordingLogger, testOutage, testRedisClient } from '../../redis/redis.test-support.js';
import { describeKeyRateLimiterContract, rateLimitedKey } from './key-rate-limiter-contract.test-support.js';
import { RateLimitedError } from './rate-limited-error.js';
import { SharedKeyRateLimiter } from './shared-key-rate-limiter.js';

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describeWithRedis('redis rate limits', (redis, url) => {
  describeKeyRateLimiterContract('redis', (now, windowMs) =>
    new SharedKeyRateLimiter(redis.first, { keyPrefix: freshKeyPrefix(), outage: testOutage('rate limits', 'closed'), now, ...(windowMs === undefined ? {} : { windowMs }) }));

  describe('redis rate limits across instances', () => {
    const pair = (leaseMs?: number) => {
      const keyPrefix = freshKeyPrefix();
      const options = (leaseMs === undefined ? {} : { leaseMs });
      return [
        new SharedKeyRateLimiter(redis.first, { keyPrefix, outage: testOutage('rate limits', 'closed'), ...options }),
        new SharedKeyRateLimiter(redis.second, { keyPrefix, outage: testOutage('rate limits', 'closed'), ...options }),
      ] as const;
    };

    it('never admits more requests per minute than the limit from two instances at once', async () => {
      const limiters = pair();
      // Clear of a minute's end, so all of them fall in one window.
      if (Date.now() % 60_000 > 55_000) await delay(60_000 - (Date.now() % 60_000) + 50);
      const limited = rateLimitedKey({ rpm: 10 });
      const results = await Promise.allSettled(Array.from({ length: 40 }, (_, index) => limiters[index % 2]!.admit(limited)));
      expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(10);
      for (const result of results) if (result.status === 'rejected') expect(result.reason).toBeInstanceOf(RateLimitedError);
    });

    it('never has more calls in flight than the concurrency limit from two instances at once, and frees them on finish', async () => {
      const limiters = pair();
      const limited = rateLimitedKey({ concurrency: 3 });
      const results = await Promise.allSettled(Array.from({ length: 20 }, (_, index) => limiters[index % 2]!.admit(limited)));
      const admitted = results.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
      expect(admitted).toHaveLength(3);
      for (const admission of admitted) admission.finish(0);
      // The finish went out on the other connection: wait until it has landed.
      await redis.first.ping();
      await redis.second.ping();
      const again = await Promise.allSettled(Array.from({ length: 6 }, (_, index) => limiters[index % 2]!.admit(limited)));
      expect(again.filter((result) => result.status === 'fulfilled')).toHaveLength(3);
    });

    it('charges tokens used on one instance to the minute the other admits in', async () => {
      const limiters = pair();
      if (Date.now() % 60_000 > 55_000) await delay(60_000 - (Date.now() % 60_000) + 50);
      const limited = rateLimitedKey({ tpm: 1_000 });
      (await limiters[0].admit(limited)).finish(1_000);
      await redis.first.ping();
      await expect(limiters[1].admit(limited)).rejects.toThrow('1000 tokens per minute');
    });

    it('frees the slot of an instance that died once its lease ends, and keeps a live call\'s lease renewed', async () => {
      const limiters = pair(600);
      const limited = rateLimitedKey({ concurrency: 1 });
      const live = await limiters[0].admit(limited);
      await delay(1_000);
      // Renewed every 200 ms: still held after longer than one lease.
      await expect(limiters[1].admit(limited)).rejects.toBeInstanceOf(RateLimitedError);
      live.finish(0);
      await redis.first.ping();
      const crashed = await testRedisClient(url);
      const prefix = freshKeyPrefix();
      const dying = new SharedKeyRateLimiter(crashed, { keyPrefix: prefix, outage: testOutage('rate limits', 'open'), leaseMs: 600 });
      const survivor = new SharedKeyRateLimiter(redis.second, { keyPrefix: prefix, outage: testOutage('rate limits', 'closed'), leaseMs: 600 });
      await dying.admit(limited);
      // The instance is gone: no finish, no renewal.
      crashed.disconnect();
      await expect(Promise.resolve(survivor.admit(limited))).rejects.toBeInstanceOf(RateLimitedError);
      await delay(700);
      await expect(Promise.resolve(survivor.admit(limited))).resolves.toBeDefined();
    });

    it('lets every key it writes expire', async () => {
      const keyPrefix = freshKeyPrefix();
      const limiter = new SharedKeyRateLimiter(redis.first, { keyPrefix, outage: testOutage('rate limits', 'closed') });
      const admission = await limiter.admit(rateLimitedKey({ rpm: 5, tpm: 100, concurrency: 2 }));
      admission.finish(10);
      await redis.first.ping();
      const keys = await redis.first.keys(`${keyPrefix}*`);
      expect(keys).toHaveLength(2);
      await limiter.admit(rateLimitedKey({ rpm: 5, tpm: 100, concurrency: 2 }));
      const written = await redis.first.keys(`${keyPrefix}*`);
      expect(written).toHaveLength(3);
      for (const key of written) {
        const ttl = await redis.first.pttl(key);
        expect(ttl).toBeGreaterThan(0);
        expect(ttl).toBeLessThanOrEqual(120_000);
      }
    });
  });

  describe('redis rate limits when redis does not answer', () => {
    it('fails open: admits without limits and logs the outage once', async () => {
      const { logger, messages } = recordingLogger();
      const unreachable = await testRedisClient(`redis://127.0.0.1:${await closedPort()}`);
      const limiter = new SharedKeyRateLimiter(unreachable, { keyPrefix: freshKeyPrefix(), outage: testOutage('rate limits', 'open', logger) });
      const limited = rateLimitedKey({ rpm: 1, concurrency: 1 });
      const started = Date.now();
      for (let call = 0; call < 3; call += 1) {
        const admission = await limiter.admit(limited);
        expect(admission.standing).toBeNull();
        admission.finish(10);
      }
      expect(Date.now() - started).toBeLessThan(1_000);
      await delay(50);
      expect(messages()).toEqual(['redis does not answer: rate limits are not enforced until it does']);
      unreachable.disconnect();
    });

    it('says so when redis answers with an error rather than not at all', async () => {
      const { logger, messages } = recordingLogger();
      const keyPrefix = freshKeyPrefix();
      const limiter = new SharedKeyRateLimiter(redis.first, { keyPrefix, outage: testOutage('rate limits', 'open', logger) });
      // Something else wrote the in-flight key as another type: the script fails on it.
      await redis.first.set(`${keyPrefix}rate:{key_1}:in-flight`, 'not a sorted set');
      expect((await limiter.admit(rateLimitedKey({ concurrency: 1 }))).standing).toBeNull();
      await delay(20);
      expect(messages()).toHaveLength(1);
      expect(messages()[0]).toMatch(/^redis refused a command \(.*WRONGTYPE.*\): rate limits are not enforced/);
    });

    it('fails closed: refuses with 503 limits_unavailable', async () => {
      const unreachable = await testRedisClient(`redis://127.0.0.1:${await closedPort()}`);
      const limiter = new SharedKeyRateLimiter(unreachable, { keyPrefix: freshKeyPrefix(), outage: testOutage('rate limits', 'closed') });
      const refusal = await limiter.admit(rateLimitedKey({ rpm: 1 })).catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(GatewayError);
      expect(refusal).toMatchObject({ code: 'limits_unavailable', status: 503 });
      unreachable.disconnect();
    });

    it('recovers without a restart when redis comes back', async () => {
      const server = new OwnRedisServer(await closedPort());
      await server.start();
      const { logger, messages } = recordingLogger();
      const client = await testRedisClient(server.url);
      try {
        const limiter = new SharedKeyRateLimiter(client, { keyPrefix: freshKeyPrefix(), outage: testOutage('rate limits', 'closed', logger) });
        const limited = rateLimitedKey({ concurrency: 5 });
        (await limiter.admit(limited)).finish(0);
        await server.stop();
        await expect(Promise.resolve(limiter.admit(limited))).rejects.toMatchObject({ code: 'limits_unavailable' });
        await expect(Promise.resolve(limiter.admit(limited))).rejects.toMatchObject({ code: 'limits_unavailable' });
        await server.start();
        const deadline = Date.now() + 10_000;
        let admitted = false;
        while (!admitted && Date.now() < deadline) {
          admitted = await limiter.admit(limited).then(
            () => true,
            () => false,
          );
          if (!admitted) await delay(100);
        }
        expect(admitted).toBe(true);
        expect(messages()).toEqual([
          'redis does not answer: calls that need rate limits are refused until it does',
          'redis answers again: rate limits are shared across instances again',
        ]);
      } finally {
        client.disconnect();
        await server.remove();
      }
    });
  });
});
