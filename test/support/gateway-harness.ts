import { Writable } from 'node:stream';
import { configSchema, type GatewayConfig } from '../../src/config/config-schema.js';
import { createLogger } from '../../src/logging/logger.js';
import { startGateway, type RunningGateway } from '../../src/app/start-gateway.js';

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
    // A test's close() should not wait 30 s for a stream it left hanging.
    server: { port: 0, shutdown_grace_seconds: 1, ...(rawConfig.server as object | undefined) },
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

/**
 * The newest ledger entry once `count` entries exist. Entries are written after the answer is
 * delivered, a moment after the client has read it, so tests wait for them.
 */
export async function waitForLedgerEntry(gateway: TestGateway, count: number): Promise<import('../../src/metering/ledger-entry.js').LedgerEntry> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    await gateway.services.ledger.flush();
    const entries = await gateway.services.storage.ledger.list({ limit: 1_000 });
    if (entries.length >= count) return entries[0]!;
    if (Date.now() > deadline) throw new Error(`ledger has ${entries.length} entries, expected ${count}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
