import type { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { closedPort, describeWithRedis, freshKeyPrefix, OwnRedisServer, recordingLogger, testOutage, testRedisClient } from '../../redis/redis.test-support.js';
import type { FailMode } from '../../config/config-schema.js';
import type { KeySpend } from '../../metering/usage-ledger.js';
import { budgetedKey, describeBudgetMeterContract, settledEntry, storedSpend } from './budget-meter-contract.test-support.js';
import { SharedBudgetMeter } from './shared-budget-meter.js';

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const nothingSpent = (): Promise<KeySpend> => Promise.resolve({ total: 0n, month: 0n, day: 0n });

describeWithRedis('redis budgets', (redis, url) => {
  const meterOn = (client: Redis, keyPrefix: string, settings: { readSpend?: (keyId: string, at: Date) => Promise<KeySpend>; mode?: FailMode; reservationTtlMs?: number; now?: () => number } = {}) =>
    new SharedBudgetMeter(client, {
      keyPrefix,
      outage: testOutage('budgets', settings.mode ?? 'closed'),
      readSpend: settings.readSpend ?? nothingSpent,
      ...(settings.now === undefined ? {} : { now: settings.now }),
      ...(settings.reservationTtlMs === undefined ? {} : { reservationTtlMs: settings.reservationTtlMs }),
    });

  describeBudgetMeterContract('redis', (readSpend, now, reservationTtlMs) =>
    meterOn(redis.first, freshKeyPrefix(), { readSpend, now, ...(reservationTtlMs === undefined ? {} : { reservationTtlMs }) }),
  );

  describe('redis budgets across instances', () => {
    it('never reserves more than the budget from two instances at once', async () => {
      const prefix = freshKeyPrefix();
      const meters = [meterOn(redis.first, prefix), meterOn(redis.second, prefix)];
      const limited = budgetedKey({ budgetNanoUsd: 1_000n });
      const results = await Promise.allSettled(Array.from({ length: 30 }, (_, index) => meters[index % 2]!.reserve(limited, `call_${index}`, 100n)));
      expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(10);
      for (const result of results) if (result.status === 'rejected') expect(result.reason).toMatchObject({ code: 'budget_exhausted' });
    });

    it('sees spend settled on another instance at once', async () => {
      const prefix = freshKeyPrefix();
      const [one, other] = [meterOn(redis.first, prefix), meterOn(redis.second, prefix)];
      const limited = budgetedKey({ budgetNanoUsd: 1_000n });
      await one.reserve(limited, 'a', 100n);
      one.settle(settledEntry('a', 950n, Date.now()));
      await redis.first.ping();
      await expect(Promise.resolve(other.reserve(limited, 'b', 51n))).rejects.toThrow('$0.00000005 is left');
      await expect(Promise.resolve(other.reserve(limited, 'b', 50n))).resolves.toBeUndefined();
    });

    it('counts a settlement repeated for the same request once', async () => {
      const prefix = freshKeyPrefix();
      const meter = meterOn(redis.first, prefix);
      const limited = budgetedKey({ budgetNanoUsd: 1_000n });
      await meter.reserve(limited, 'a', 500n);
      const entry = settledEntry('a', 400n, Date.now());
      meter.settle(entry);
      meter.settle(entry);
      meterOn(redis.second, prefix).settle(entry);
      await redis.second.ping();
      await expect(Promise.resolve(meter.reserve(limited, 'b', 600n))).resolves.toBeUndefined();
      expect(await redis.first.hget(`${prefix}budget:{key_1}:spend`, 'total')).toBe('400');
    });

    it('seeds a key once from the stored totals when instances start at once, and again after redis lost them', async () => {
      const prefix = freshKeyPrefix();
      let stored: KeySpend = { total: 700n, month: 300n, day: 100n };
      let reads = 0;
      // The second instance reads later, after more was spent: the first seed written stays.
      const readSpend = async () => {
        reads += 1;
        const read = reads;
        await delay(read === 2 ? 60 : 10);
        return read === 2 ? { ...stored, total: 900n } : stored;
      };
      const [one, other] = [meterOn(redis.first, prefix, { readSpend }), meterOn(redis.second, prefix, { readSpend })];
      const limited = budgetedKey({ budgetNanoUsd: 1_000n });
      await Promise.all([one.reserve(limited, 'a', 100n), other.reserve(limited, 'b', 100n)]);
      expect(reads).toBe(2);
      await expect(Promise.resolve(one.reserve(limited, 'c', 101n))).rejects.toThrow('$0.0000003 is left beside requests in flight');
      expect(await redis.first.hget(`${prefix}budget:{key_1}:spend`, 'total')).toBe('700');
      expect(reads).toBe(2);
      // Redis restarted without persistence: everything of this key is gone, the ledger has moved on.
      const written = await redis.first.keys(`${prefix}*`);
      expect(written.length).toBeGreaterThan(0);
      await redis.first.del(...written);
      stored = { total: 950n, month: 300n, day: 100n };
      await expect(Promise.resolve(other.reserve(limited, 'd', 51n))).rejects.toThrow('$0.00000005 is left');
      expect(reads).toBe(3);
      await expect(Promise.resolve(other.reserve(limited, 'd', 50n))).resolves.toBeUndefined();
    });

    it('keeps amounts beyond 2^53 nano-USD exact', async () => {
      const prefix = freshKeyPrefix();
      const big = 2n ** 60n + 7n;
      const meter = meterOn(redis.first, prefix, { readSpend: async () => ({ total: big, month: 0n, day: 0n }) });
      await meter.reserve(budgetedKey({ budgetNanoUsd: 2n ** 62n }), 'a', 3n);
      meter.settle(settledEntry('a', 2n ** 55n + 1n, Date.now()));
      await redis.first.ping();
      expect(await redis.first.hget(`${prefix}budget:{key_1}:spend`, 'total')).toBe((big + 2n ** 55n + 1n).toString());
      expect(await redis.first.hget(`${prefix}budget:{key_1}:spend`, 'reserved')).toBe('0');
    });

    it('releases the reservations of an instance that died once they lapse', async () => {
      const prefix = freshKeyPrefix();
      const dying = await testRedisClient(url);
      const limited = budgetedKey({ budgetNanoUsd: 100n });
      await meterOn(dying, prefix, { reservationTtlMs: 500 }).reserve(limited, 'lost', 100n);
      dying.disconnect();
      const survivor = meterOn(redis.second, prefix, { reservationTtlMs: 500 });
      await expect(Promise.resolve(survivor.reserve(limited, 'next', 1n))).rejects.toMatchObject({ code: 'budget_exhausted' });
      await delay(600);
      await expect(Promise.resolve(survivor.reserve(limited, 'next', 100n))).resolves.toBeUndefined();
    });

    it('lets every key it writes expire', async () => {
      const prefix = freshKeyPrefix();
      const meter = meterOn(redis.first, prefix);
      await meter.reserve(budgetedKey({ budgetNanoUsd: 1_000n }), 'a', 100n);
      await meter.reserve(budgetedKey({ budgetNanoUsd: 1_000n }), 'b', 100n);
      meter.settle(settledEntry('a', 10n, Date.now()));
      await redis.first.ping();
      const written = await redis.first.keys(`${prefix}*`);
      expect(written.sort()).toEqual([`${prefix}budget:{key_1}:amounts`, `${prefix}budget:{key_1}:reservations`, `${prefix}budget:{key_1}:settled:a`, `${prefix}budget:{key_1}:spend`]);
      for (const key of written) expect(await redis.first.pttl(key)).toBeGreaterThan(0);
    });
  });

  describe('redis budgets when redis does not answer', () => {
    it('fails closed by default: refuses calls of keys with a budget with 503, lets the others through', async () => {
      const unreachable = await testRedisClient(`redis://127.0.0.1:${await closedPort()}`);
      const meter = meterOn(unreachable, freshKeyPrefix());
      await expect(Promise.resolve(meter.reserve(budgetedKey({ budgetNanoUsd: 1_000n }), 'a', 1n))).rejects.toMatchObject({ code: 'limits_unavailable', status: 503 });
      await expect(Promise.resolve(meter.reserve(budgetedKey({}), 'b', 1n))).resolves.toBeUndefined();
      unreachable.disconnect();
    });

    it('does not send again a settlement Redis refused, which would fail every time', async () => {
      const { logger, messages } = recordingLogger();
      const prefix = freshKeyPrefix();
      const meter = new SharedBudgetMeter(redis.first, { keyPrefix: prefix, outage: testOutage('budgets', 'closed', logger), readSpend: nothingSpent });
      await meter.reserve(budgetedKey({ budgetNanoUsd: 1_000n }), 'a', 1n);
      // Something else wrote one of the key's entries as another type: its settlement fails in the script.
      await redis.first.set(`${prefix}budget:{key_1}:amounts`, 'not a hash');
      meter.settle(settledEntry('a', 5n, Date.now()));
      await redis.first.ping();
      for (const request of ['b', 'c', 'd']) await meter.reserve(budgetedKey({ budgetNanoUsd: 1_000n }, 'key_2'), request, 1n);
      await delay(20);
      expect(messages()).toHaveLength(2);
      expect(messages()[0]).toMatch(/^redis refused a command \(.*WRONGTYPE.*\): calls that need budgets are refused/);
      expect(messages()[1]).toBe('redis answers again: budgets are shared across instances again');
    });

    it('fails open when so configured, logging the outage once', async () => {
      const { logger, messages } = recordingLogger();
      const unreachable = await testRedisClient(`redis://127.0.0.1:${await closedPort()}`);
      const meter = new SharedBudgetMeter(unreachable, { keyPrefix: freshKeyPrefix(), outage: testOutage('budgets', 'open', logger), readSpend: nothingSpent });
      await expect(Promise.resolve(meter.reserve(budgetedKey({ budgetNanoUsd: 1n }), 'a', 1_000n))).resolves.toBeUndefined();
      await expect(Promise.resolve(meter.reserve(budgetedKey({ budgetNanoUsd: 1n }), 'b', 1_000n))).resolves.toBeUndefined();
      meter.settle(settledEntry('a', 5n));
      await delay(50);
      expect(messages()).toEqual(['redis does not answer: budgets are not enforced until it does']);
      unreachable.disconnect();
    });

    it('recovers without a restart, sending again the settlements and releases that failed meanwhile', async () => {
      const server = new OwnRedisServer(await closedPort(), true);
      await server.start();
      const client = await testRedisClient(server.url);
      try {
        const prefix = freshKeyPrefix();
        const stored = storedSpend({ total: 0n, month: 0n, day: 0n });
        const meter = meterOn(client, prefix, { readSpend: stored.read });
        const limited = budgetedKey({ budgetNanoUsd: 1_000n });
        await meter.reserve(limited, 'a', 500n);
        await meter.reserve(limited, 'failed', 400n);
        await server.stop();
        await expect(Promise.resolve(meter.reserve(limited, 'b', 1n))).rejects.toMatchObject({ code: 'limits_unavailable' });
        meter.settle(settledEntry('a', 300n, Date.now()));
        meter.release('key_1', 'failed');
        await delay(50);
        await server.start();
        const deadline = Date.now() + 10_000;
        let reserved = false;
        while (!reserved && Date.now() < deadline) {
          reserved = await meter.reserve(limited, 'b', 100n).then(
            () => true,
            () => false,
          );
          if (!reserved) await delay(100);
        }
        expect(reserved).toBe(true);
        await client.ping();
        // The reservation of `a` ended and its cost counted, and `failed` was released, though Redis was down then.
        expect(await client.hmget(`${prefix}budget:{key_1}:spend`, 'total', 'reserved')).toEqual(['300', '100']);
        expect(stored.reads()).toBe(1);
      } finally {
        client.disconnect();
        await server.remove();
      }
    });
  });
});
