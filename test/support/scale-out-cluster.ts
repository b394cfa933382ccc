import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { defaultConfig } from '../../src/config/default-config.js';
import { freshKeyPrefix } from '../../src/redis/redis.test-support.js';
import { startSimulator, type SimulatorHandle } from '../../src/sim/start-simulator.js';
import type { Storage } from '../../src/storage/ports.js';
import { insertKey } from './admin-keys.js';
import { startTestGateway, type TestGateway } from './gateway-harness.js';
import { createPostgresTestDatabase, type PostgresTestDatabase } from './postgres-test-database.js';
import { startScriptedUpstream } from './scripted-upstream/index.js';
import { s3ProtocolServerCredentials, startS3ProtocolServer, type S3ProtocolServer } from './s3-protocol-server.js';
import { quickVideoSettings } from './video-jobs.js';

/** The rate window of the cluster's gateways (`limits.window_seconds`): short, so a test sees it roll over. */
export const clusterWindowSeconds = 3;

/** The cap of the `capped-sim` provider, which alone serves `capped-gpt`. */
export const cappedProviderSlots = 2;

export interface ScaleOutClusterOptions {
  readonly postgresAdminUrl: string;
  /** `redis.url` of every gateway: the test's Redis, or a fault proxy in front of it. */
  readonly redisUrl: string;
  /** More `redis` settings (fail modes), the same on every gateway. */
  readonly redis?: Record<string, unknown>;
  /** Content in an s3rver bucket of the cluster's own; else in a local directory per gateway. */
  readonly s3?: boolean;
  readonly instances?: number;
}

export interface ScaleOutCluster {
  readonly gateways: readonly TestGateway[];
  /** The one upstream every gateway calls. */
  readonly simulator: SimulatorHandle;
  /** Requests that reached the upstream so far (through a counting relay in front of the simulator). */
  upstreamRequests(): number;
  /** The storage of the first gateway (every gateway reads the same database). */
  readonly storage: Storage;
  readonly admin: { readonly id: string; readonly secret: string };
  /** An OpenAI SDK client of `gateway` with `secret`, never retrying (every refusal is seen). */
  client(gateway: TestGateway, secret: string): OpenAI;
  /** Starts one more gateway on the same database, Redis prefix and bucket, with other `redis` settings. */
  startInstance(redis?: Record<string, unknown>): Promise<TestGateway>;
  close(): Promise<void>;
}

/**
 * Gateways in this process as instances behind a load balancer: each opens its own connections to
 * one fresh PostgreSQL database, one Redis key prefix and (optionally) one s3rver bucket, and they
 * share nothing else. They call one simulator started here; `capped-gpt` and `capped-image` go to a
 * provider with `max_concurrency`, `capped-then-free` falls back from that provider to an uncapped one.
 */
export async function startScaleOutCluster(options: ScaleOutClusterOptions): Promise<ScaleOutCluster> {
  const database: PostgresTestDatabase = await createPostgresTestDatabase(options.postgresAdminUrl);
  const simulator = await startSimulator();
  // Every call goes through a scripted upstream relaying to the simulator, which counts them.
  const relay = await startScriptedUpstream({ reply: { relayTo: simulator.url } });
  const s3: S3ProtocolServer | undefined = options.s3 === true ? await startS3ProtocolServer('scale-out') : undefined;
  const directories: string[] = [];
  const keyPrefix = freshKeyPrefix();
  const gateways: TestGateway[] = [];
  const defaults = defaultConfig({}) as { providers: Record<string, Record<string, unknown>>; models: Record<string, unknown>[] };
  const simImage = defaults.models.find((model) => model.id === 'sim-image') as Record<string, unknown>;
  const simPrice = { input_per_mtok: '1.00', output_per_mtok: '2.00', effective_from: '2026-01-01' };

  const startInstance = async (redis: Record<string, unknown> = {}): Promise<TestGateway> => {
    const directory = mkdtempSync(path.join(tmpdir(), 'switchyard-scale-out-'));
    directories.push(directory);
    const gateway = await startTestGateway({
      database: { url: database.url },
      redis: { url: options.redisUrl, key_prefix: keyPrefix, connect_timeout_ms: 300, command_timeout_ms: 300, ...options.redis, ...redis },
      limits: { window_seconds: clusterWindowSeconds },
      content:
        s3 === undefined
          ? { dir: directory }
          : {
              dir: directory,
              s3: { bucket: s3.bucket, endpoint: s3.endpoint, ...accessKeys(), force_path_style: true, prefix: 'gateway' },
            },
      videos: quickVideoSettings,
      providers: {
        'sim-openai': { type: 'openai', base_url: `${relay.url}/v1` },
        'sim-anthropic': { type: 'anthropic', base_url: relay.url },
        'sim-gemini': { type: 'gemini', base_url: relay.url },
        'capped-sim': { type: 'openai', base_url: `${relay.url}/v1`, max_concurrency: cappedProviderSlots },
      },
      models: [
        ...defaults.models,
        { id: 'capped-gpt', routes: [{ provider: 'capped-sim', model: 'sim-gpt' }], price: simPrice },
        { ...simImage, id: 'capped-image', legacy_aliases: [], routes: [{ provider: 'capped-sim', model: 'sim-image' }] },
        { id: 'capped-then-free', routes: [{ provider: 'capped-sim', model: 'sim-gpt' }, { provider: 'sim-openai', model: 'sim-gpt' }], price: simPrice },
      ],
    });
    gateways.push(gateway);
    return gateway;
  };

  const first = await startInstance();
  for (let index = 1; index < (options.instances ?? 2); index += 1) await startInstance();
  const admin = await insertKey(first.services.storage, 'operator', true);
  return {
    gateways,
    simulator,
    upstreamRequests: () => relay.calls(),
    storage: first.services.storage,
    admin,
    client: (gateway, secret) => new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: secret, maxRetries: 0 }),
    startInstance,
    async close() {
      await Promise.all(gateways.map((gateway) => gateway.close()));
      await relay.close();
      await simulator.close();
      await s3?.stop();
      await database.drop();
      for (const directory of directories) rmSync(directory, { recursive: true, force: true });
    },
  };
}

function accessKeys(): { access_key_id: string; secret_access_key: string } {
  return { access_key_id: s3ProtocolServerCredentials.accessKeyId, secret_access_key: s3ProtocolServerCredentials.secretAccessKey };
}
