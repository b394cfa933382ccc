import { Writable } from 'node:stream';
import { configSchema, type GatewayConfig } from '../../src/config/config-schema.js';
import { createLogger } from '../../src/logging/logger.js';
import { startGateway, type RunningGateway } from '../../src/server/start-gateway.js';

export interface TestGateway extends RunningGateway {
  /** Everything the gateway logged, as text. */
  logs(): string;
}

/**
 * Starts a gateway in-process on an ephemeral port with an in-memory SQLite database, from a
 * config written as it would be in YAML (snake_case keys).
 */
export async function startTestGateway(rawConfig: Record<string, unknown>): Promise<TestGateway> {
  const config: GatewayConfig = configSchema.parse({
    database: { url: 'sqlite::memory:' },
    ...rawConfig,
    server: { port: 0, ...(rawConfig.server as object | undefined) },
    routing: { backoff_ms: 10, ...(rawConfig.routing as object | undefined) },
    log: { level: 'debug' },
  });
  let logText = '';
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      logText += chunk.toString('utf8');
      callback();
    },
  });
  const gateway = await startGateway(config, { logger: createLogger('debug', sink) });
  return { ...gateway, logs: () => logText };
}
