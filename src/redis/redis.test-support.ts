import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { FailMode, RedisConfig } from '../config/config-schema.js';
import { createLogger, type Logger } from '../logging/logger.js';
import { closeRedis, connectRedis, openRedis } from './open-redis.js';
import { RedisOutage } from './redis-outage.js';

/** Set by `scripts/with-redis.js`; tests that need Redis skip without it. */
export const testRedisUrl = process.env.TEST_REDIS_URL;

/** Keys no other test writes: every test gets its own prefix in the one throwaway Redis. */
export const freshKeyPrefix = (): string => `test:${randomUUID()}:`;

/** A logger that keeps its records, to see what an outage logged. */
export function recordingLogger(): { logger: Logger; messages: () => string[] } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter((line) => line !== ''));
      done();
    },
  });
  const logger = createLogger('info', sink);
  return { logger, messages: () => lines.map((line) => (JSON.parse(line) as { msg: string }).msg) };
}

export function testOutage(what: string, mode: FailMode, logger = recordingLogger().logger): RedisOutage {
  return new RedisOutage(what, mode, logger);
}

/** The Redis settings of the test clients (`url` aside): no offline queue, short timeouts. */
export const testRedisConfig: RedisConfig = { url: '', limits_fail_mode: 'open', budgets_fail_mode: 'closed', connect_timeout_ms: 500, command_timeout_ms: 500, key_prefix: '' };

/** A client as the gateway opens it (no offline queue, short timeouts), connected when Redis is up. */
export async function testRedisClient(url: string, logger = recordingLogger().logger): Promise<Redis> {
  const client = openRedis({ ...testRedisConfig, url }, logger);
  await connectRedis(client, 500);
  return client;
}

export { closeRedis };

/** Two clients of the throwaway Redis, as two gateway instances hold theirs. */
export interface RedisPair {
  first: Redis;
  second: Redis;
}

/**
 * Declares `body`'s tests with two clients of the throwaway Redis (`url`), opened before them and
 * closed after; skipped, saying why, when `TEST_REDIS_URL` is not set.
 */
export function describeWithRedis(name: string, body: (redis: RedisPair, url: string) => void): void {
  if (testRedisUrl === undefined) {
    describe.skip(`${name} (TEST_REDIS_URL is not set; run under scripts/with-redis.js)`, () => {
      it('skipped', () => undefined);
    });
    return;
  }
  const url = testRedisUrl;
  // Filled before the first test runs; the tests only read it.
  const redis = {} as RedisPair;
  beforeAll(async () => {
    [redis.first, redis.second] = await Promise.all([testRedisClient(url), testRedisClient(url)]);
  });
  afterAll(async () => {
    await Promise.all([closeRedis(redis.first), closeRedis(redis.second)]);
  });
  body(redis, url);
}

/** A port nothing listens on (it was free a moment ago). */
export function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * A redis-server of the test's own on a fixed port, to stop and start again (the shared one of
 * `scripts/with-redis.js` must stay up for the other tests). No persistence: a restart loses
 * everything, as a Redis without it does.
 */
export class OwnRedisServer {
  private process: ChildProcess | undefined;
  private readonly directory = mkdtempSync(path.join(os.tmpdir(), 'switchyard-redis-test-'));

  /** `persistent`: an append-only file, so a stop and start keeps the data (a Redis restarted with persistence). */
  constructor(
    readonly port: number,
    private readonly persistent = false,
  ) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const server = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--dir', this.directory, '--save', '', '--appendonly', this.persistent ? 'yes' : 'no'], {
      stdio: 'ignore',
    });
    this.process = server;
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      if (await answersPing(this.port)) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`redis-server did not start on port ${this.port}`);
  }

  async stop(): Promise<void> {
    const server = this.process;
    this.process = undefined;
    if (server === undefined || server.exitCode !== null) return;
    const exited = new Promise((resolve) => server.once('exit', resolve));
    // SIGTERM makes Redis flush its append-only file; without one it loses everything either way.
    server.kill('SIGTERM');
    await exited;
  }

  async remove(): Promise<void> {
    await this.stop();
    rmSync(this.directory, { recursive: true, force: true });
  }
}

function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const done = (result: boolean) => {
      socket.destroy();
      resolve(result);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (chunk) => done(chunk.toString('utf8').startsWith('+PONG')));
  });
}
