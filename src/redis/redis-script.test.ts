import { createHash } from 'node:crypto';
import type { Socket } from 'node:net';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRedis } from './open-redis.js';
import { RedisScript } from './redis-script.js';
import { closedPort, closeRedis, OwnRedisServer, recordingLogger, testRedisClient, testRedisConfig, testRedisUrl } from './redis.test-support.js';

const countUp = "return redis.call('INCRBY', KEYS[1], ARGV[1])";
const counter = new RedisScript('testCountUp', countUp, 1);
// Run first in the order test: new to Redis there, as every script is to a fresh or restarted one.
const setter = new RedisScript('testSet', "return redis.call('SET', KEYS[1], ARGV[1])", 1);
const failing = new RedisScript('testFail', "return redis.error_reply('nope: ' .. ARGV[1])", 0);

// A Redis of its own: flushing the scripts of the shared one would disturb the tests running beside these.
describe.skipIf(testRedisUrl === undefined)('a Lua script run on Redis', () => {
  let server: OwnRedisServer;
  beforeAll(async () => {
    server = new OwnRedisServer(await closedPort());
    await server.start();
  });
  afterAll(() => server.remove());

  /** Runs `body` with `count` new connections (each a socket of its own), closed after. */
  async function withClients(count: number, body: (...clients: Redis[]) => Promise<void>): Promise<void> {
    const clients = await Promise.all(Array.from({ length: count }, () => testRedisClient(server.url)));
    try {
      await body(...clients);
    } finally {
      await Promise.all(clients.map((client) => closeRedis(client)));
    }
  }

  it('loads itself on each connection, runs by its hash after that, and again when Redis has lost it', () =>
    withClients(2, async (first, second) => {
      expect(await counter.run(first, ['count'], [2])).toBe(2);
      expect(await first.script('EXISTS', createHash('sha1').update(countUp).digest('hex'))).toEqual([1]);
      expect(await counter.run(first, ['count'], [3])).toBe(5);
      expect(await counter.run(second, ['count'], [4])).toBe(9);
      await second.script('FLUSH');
      // Both connections believe the script loaded; Redis answers NOSCRIPT, and the call goes again in full.
      expect(await counter.run(first, ['count'], [1])).toBe(10);
      expect(await counter.run(second, ['count'], [1])).toBe(11);
    }));

  it('keeps the order of the calls sent on a connection, its first one included', () =>
    withClients(1, async (client) => {
      // Sent without waiting, as a settlement is: a command sent after it must see it done.
      void setter.run(client, ['sent-first'], [7]);
      expect(await client.get('sent-first')).toBe('7');
    }));

  it('sends the scripts of one tick in one write, each answered', () =>
    withClients(1, async (client) => {
      await counter.run(client, ['together'], [1]);
      const socket = client.stream as Socket;
      const answers = [counter.run(client, ['together'], [2]), counter.run(client, ['together'], [3])];
      expect(socket.writableCorked).toBe(1);
      await new Promise((resolve) => process.nextTick(resolve));
      expect(socket.writableCorked).toBe(0);
      expect(await Promise.all(answers)).toEqual([3, 6]);
    }));

  it('fails as a promise on a client that has not connected yet', async () => {
    // Opened as the gateway opens it, before its first connection attempt: no socket at all yet.
    const client = openRedis({ ...testRedisConfig, url: `redis://127.0.0.1:${await closedPort()}` }, recordingLogger().logger);
    try {
      await expect(counter.run(client, ['count'], [1])).rejects.toThrow("Stream isn't writeable");
    } finally {
      await closeRedis(client);
    }
  });

  it("passes the script's own error on, and refuses a wrong number of keys before sending anything", () =>
    withClients(1, async (client) => {
      await expect(failing.run(client, [], ['x'])).rejects.toThrow('nope: x');
      await expect(failing.run(client, [], ['y'])).rejects.toThrow('nope: y');
      expect(() => counter.run(client, [], [1])).toThrow('takes 1 keys, not 0');
    }));
});
