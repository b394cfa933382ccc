import { describe, expect, it } from 'vitest';
import { closedPort, OwnRedisServer, recordingLogger, testRedisUrl } from './redis.test-support.js';
import { closeRedis, connectRedis, openRedis } from './open-redis.js';

const config = (url: string) => ({ url, limits_fail_mode: 'open', budgets_fail_mode: 'closed', connect_timeout_ms: 300, command_timeout_ms: 300, key_prefix: '' }) as const;

// Runs redis-server of its own; like every Redis test, only where scripts/with-redis.js provides one.
describe.skipIf(testRedisUrl === undefined)('the redis connection of the gateway', () => {
  it('refuses commands at once while redis is down, and answers once it is up, without reopening', async () => {
    const server = new OwnRedisServer(await closedPort());
    const client = openRedis(config(server.url), recordingLogger().logger);
    try {
      // Redis is not there at start: the gateway starts anyway.
      expect(await connectRedis(client, 300)).toBe(false);
      const started = Date.now();
      await expect(client.ping()).rejects.toThrow();
      expect(Date.now() - started).toBeLessThan(200);
      await server.start();
      const deadline = Date.now() + 10_000;
      let answer: string | undefined;
      while (answer === undefined && Date.now() < deadline) {
        answer = await client.ping().catch(() => undefined);
        if (answer === undefined) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(answer).toBe('PONG');
    } finally {
      await closeRedis(client);
      await server.remove();
    }
  });

  it('gives up on a command after the command timeout when redis stops answering', async () => {
    const server = new OwnRedisServer(await closedPort());
    await server.start();
    const client = openRedis(config(server.url), recordingLogger().logger);
    try {
      expect(await connectRedis(client, 2_000)).toBe(true);
      // A Redis that hangs: connected, but answering nothing for a second.
      const pauser = openRedis(config(server.url), recordingLogger().logger);
      await connectRedis(pauser, 2_000);
      await pauser.call('CLIENT', 'PAUSE', '1000', 'ALL');
      await closeRedis(pauser);
      const started = Date.now();
      await expect(client.ping()).rejects.toThrow(/timed out/i);
      expect(Date.now() - started).toBeLessThan(800);
    } finally {
      await closeRedis(client);
      await server.remove();
    }
  });
});
