import { Redis } from 'ioredis';
import type { RedisConfig } from '../config/config-schema.js';
import type { Logger } from '../logging/logger.js';

/** How long ioredis waits between reconnection attempts at most: recovery within a second or two of Redis coming back. */
const maxReconnectDelayMs = 1_000;

/**
 * A client for the limits and budgets shared by every instance. A call must never wait on a Redis
 * that is gone: commands are refused at once while disconnected (no offline queue), time out after
 * `command_timeout_ms`, and are not retried, so the fail mode decides within that time. ioredis keeps
 * reconnecting in the background, so the gateway recovers without a restart.
 */
export function openRedis(config: RedisConfig, logger: Logger): Redis {
  const client = new Redis(config.url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: config.connect_timeout_ms,
    commandTimeout: config.command_timeout_ms,
    retryStrategy: (attempt) => Math.min(attempt * 100, maxReconnectDelayMs),
  });
  // Without a listener ioredis prints every failed reconnection; the fail modes log each outage once.
  client.on('error', (error: Error) => logger.debug({ err: error }, 'redis connection error'));
  return client;
}

/**
 * Connects and resolves once Redis answers, or after the connect timeout: a gateway starts even with
 * Redis down (its fail modes apply until ioredis reconnects).
 */
export async function connectRedis(client: Redis, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    const connected = client.connect().then(
      () => true,
      () => false,
    );
    return await Promise.race([connected, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

/** Closes the connection, waiting for replies already due; a Redis that is gone is simply dropped. */
export async function closeRedis(client: Redis): Promise<void> {
  if (client.status === 'ready') {
    await client.quit().catch(() => client.disconnect());
    return;
  }
  client.disconnect();
}
