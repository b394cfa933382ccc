import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultConfig } from '../../src/config/default-config.js';
import { openStorage } from '../../src/storage/open-storage.js';
import type { LedgerEntry } from '../../src/metering/ledger-entry.js';
import { spawnGateway, zeroConfigEnvironment, type SpawnedGateway } from './spawned-gateway.js';
import { quickVideoSettings } from './video-jobs.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = path.join(root, 'bin', 'switchyard.js');

export interface DrainGatewaySettings {
  readonly workDirectory: string;
  /** `sqlite:…` or a PostgreSQL URL. */
  readonly databaseUrl: string;
  readonly graceSeconds: number;
  /** The simulator models' upstream; the built-in simulator when absent. */
  readonly upstreamUrl?: string;
  /** Distinguishes the config files of several instances. */
  readonly name?: string;
}

/** A `switchyard serve` child process with the simulator's models, a shutdown grace and quick video leases. */
export function serveForDrain(settings: DrainGatewaySettings): Promise<SpawnedGateway> {
  const base = defaultConfig({}) as { providers: Record<string, { type: string; base_url: string }>; models: unknown[] };
  const providers =
    settings.upstreamUrl === undefined
      ? base.providers
      : Object.fromEntries(
          // OpenAI's API root is under /v1; Anthropic's and Gemini's are the origin.
          Object.entries(base.providers).map(([name, provider]) => [name, { ...provider, base_url: `${settings.upstreamUrl}${provider.type === 'openai' ? '/v1' : ''}` }]),
        );
  const configFile = path.join(settings.workDirectory, `switchyard-${settings.name ?? 'gateway'}.json`);
  const config = {
    ...base,
    providers,
    server: { shutdown_grace_seconds: settings.graceSeconds },
    database: { url: settings.databaseUrl },
    content: { dir: path.join(settings.workDirectory, 'content') },
    videos: quickVideoSettings,
    // The calls are keyless (open access), and so are the scrapes that count their streams.
    metrics: { public: true },
  };
  // JSON is YAML too.
  writeFileSync(configFile, JSON.stringify(config));
  return spawnGateway(process.execPath, [bin, 'serve', '--config', configFile, '--port', '0'], {
    cwd: settings.workDirectory,
    env: zeroConfigEnvironment(),
    urlPattern: /"url":"(http:\/\/[^"]+)"/,
  });
}

/** Every ledger entry in the database, read by a storage of its own (the gateway may be gone). */
export async function ledgerEntries(databaseUrl: string): Promise<LedgerEntry[]> {
  const storage = await openStorage(databaseUrl);
  try {
    return await storage.ledger.list();
  } finally {
    await storage.close();
  }
}

/**
 * Resolves to the exit code and how long after `since` the process exited. Call it when the signal
 * is sent: for a process that has already exited it can only measure up to now.
 */
export function exitOf(gateway: SpawnedGateway, since: number): Promise<{ code: number | null; signal: NodeJS.Signals | null; afterMs: number }> {
  const child = gateway.process;
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve({ code: child.exitCode, signal: child.signalCode, afterMs: Date.now() - since });
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal, afterMs: Date.now() - since })));
}

/** A prompt the simulator answers with `words` words, one every `paceMs`. */
export function slowPrompt(words: number, paceMs = 100): string {
  return `tell me a story [words:${words}] [pace:${paceMs}]`;
}

/** Waits until the gateway at `url` is delivering at least `count` streams (its own metrics say so). */
export async function streamsInFlight(url: string, count: number, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const metrics = await (await fetch(`${url}/metrics`)).text();
    const total = [...metrics.matchAll(/^switchyard_streams_in_flight\{[^}]*\} (\d+)/gm)].reduce((sum, match) => sum + Number(match[1]), 0);
    if (total >= count) return;
    if (Date.now() > deadline) throw new Error(`only ${total} of ${count} streams in flight`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
