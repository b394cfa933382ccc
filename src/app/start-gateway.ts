import { randomUUID } from 'node:crypto';
import { createServer, type Server, type ServerOptions } from 'node:http';
import { hostname } from 'node:os';
import type { AddressInfo } from 'node:net';
import { catalogSnapshot, type CatalogSnapshot } from '../catalog/catalog-snapshot.js';
import { LiveCatalog } from '../catalog/live-catalog.js';
import type { GatewayConfig } from '../config/config-schema.js';
import { builtinSimulatorUrl } from '../config/default-config.js';
import { ApiKeyVerifier } from '../keys/api-key-verifier.js';
import { KeyPopulation } from '../keys/key-population.js';
import { KeyUseRecorder } from '../keys/key-use-recorder.js';
import { createLogger, type Logger } from '../logging/logger.js';
import { ContentSweeper } from '../media/content-store/content-sweeper.js';
import { openContentStore } from '../media/content-store/open-content-store.js';
import { contentUrlSecret } from '../media/content-store/content-url-secret.js';
import { ContentUrlSigner } from '../media/content-store/content-url-signer.js';
import { ImageContentPublisher } from '../media/images/image-content-publisher.js';
import { VideoWorker } from '../media/videos/video-worker.js';
import { openGovernance } from '../governance/open-governance.js';
import { LedgerWriter } from '../metering/ledger-writer.js';
import { GatewayMetrics } from '../observability/gateway-metrics.js';
import { Readiness } from '../observability/readiness.js';
import { CircuitBreakers } from '../routing/circuit-breaker.js';
import { startSimulator, type SimulatorHandle } from '../sim/index.js';
import { openStorage } from '../storage/open-storage.js';
import type { VideoJobStore } from '../media/videos/video-job-store.js';
import type { Storage } from '../storage/ports.js';
import { settlingVideoJobStore } from '../media/videos/settling-video-job-store.js';
import { closeUpstreamPools } from '../upstream/upstream-client.js';
import { Authenticator, type OpenAccessMode } from '../http/authenticate.js';
import type { GatewayServices } from '../endpoints/gateway-services.js';
import { CallDrain } from '../call/call-drain.js';
import { capConnections } from './cap-connections.js';
import { drainServer } from './drain-server.js';
import { logPrices } from './log-prices.js';
import { createRequestListener } from './request-listener.js';
import { isLoopbackHostname } from '../http/open-access-caller.js';
import { databaseStartFailure, listenStartFailure } from './start-failure.js';

export interface RunningGateway {
  readonly url: string;
  readonly port: number;
  readonly services: GatewayServices;
  /**
   * Puts the providers, models, prices, routing and log level of `next` in force for calls that
   * start from now on; calls already running keep what they started with. The rest of `next`
   * (address, database, server settings) is ignored: it needs a restart.
   */
  applyConfig(next: GatewayConfig): Promise<CatalogSnapshot>;
  /**
   * Drains and stops: `/ready` answers 503 at once, no new connection is taken, calls in flight
   * get `graceSeconds` (default `server.shutdown_grace_seconds`) to end before they are stopped
   * with their format's error event, then the ledger and every store are flushed and closed.
   */
  close(graceSeconds?: number): Promise<void>;
}

export interface StartOptions {
  readonly logger?: Logger;
  /** An already open storage (tests share one); otherwise `config.database.url` is opened. */
  readonly storage?: Storage;
  /** Log the `switchyard listening` record (the default); the CLI on a terminal prints its own start line instead. */
  readonly logListening?: boolean;
}

/**
 * Opens storage, starts the built-in simulator when the config uses it, and serves HTTP. A start
 * that fails closes what it had opened (so the process can end) and throws a `StartFailure` saying
 * what could not be done, for a database or an address; any other error as it is.
 */
export async function startGateway(config: GatewayConfig, options: StartOptions = {}): Promise<RunningGateway> {
  const storage = options.storage ?? (await openDatabase(config));
  const opened: (() => Promise<void>)[] = options.storage === undefined ? [() => storage.close()] : [];
  try {
    return await startOnStorage(config, options, storage, opened);
  } catch (error) {
    // Newest first, each on its own: one that fails to close must not keep the others open.
    for (const close of opened.reverse()) await close().catch(() => undefined);
    await closeUpstreamPools().catch(() => undefined);
    throw error;
  }
}

async function openDatabase(config: GatewayConfig): Promise<Storage> {
  let storage: Storage;
  try {
    storage = await openStorage(config.database.url, { connectTimeoutMs: config.database.connect_timeout_ms, queryTimeoutMs: config.database.query_timeout_ms });
  } catch (error) {
    throw databaseStartFailure(config.database.url, error);
  }
  try {
    await storage.migrate();
  } catch (error) {
    await storage.close().catch(() => undefined);
    throw databaseStartFailure(config.database.url, error);
  }
  return storage;
}

/** The rest of the start, once the database is open; `opened` collects what a failure must close. */
async function startOnStorage(config: GatewayConfig, options: StartOptions, storage: Storage, opened: (() => Promise<void>)[]): Promise<RunningGateway> {
  const logger = options.logger ?? createLogger(config.log.level);
  if (options.storage !== undefined) await storage.migrate();
  let simulator: Promise<SimulatorHandle> | undefined;
  opened.push(async () => {
    await simulator?.then((running) => running.close());
  });
  /** Started for the first configuration that names it, then kept: calls in flight may still use it. */
  const simulatorUrlFor = async (next: GatewayConfig): Promise<string | undefined> => {
    if (usesSimulator(next) && simulator === undefined) {
      const starting = startSimulator({ host: '127.0.0.1', port: 0 });
      simulator = starting;
      // A failed start is reported to the caller; the next configuration that needs it tries again.
      starting.catch(() => {
        if (simulator === starting) simulator = undefined;
      });
    }
    return (await simulator)?.url;
  };
  const catalog = new LiveCatalog(await catalogSnapshot(config, await simulatorUrlFor(config)));
  logPrices(catalog.current(), logger);
  if (config.metrics.require_admin_key === true) {
    logger.warn('metrics.require_admin_key is deprecated and may be removed: GET /metrics needs an admin key unless metrics.public is true, so drop the line');
  }
  const verifier = new ApiKeyVerifier(storage.keys);
  const keyUses = new KeyUseRecorder(storage.keys, logger);
  const ledger = new LedgerWriter(storage.ledger, logger);
  // Shared by every instance through Redis when it is configured, else held in this process.
  const keyLimits = await openGovernance(config.redis, config.limits, (keyId, at) => storage.ledger.spend(keyId, at), logger);
  opened.push(() => keyLimits.close());
  const budgets = keyLimits.budgets;
  // One key's failing calls never shut a route for the others: see CircuitBreakers.
  const circuitBreakers = new CircuitBreakers(Date.now, new KeyPopulation(storage.keys));
  const metrics = new GatewayMetrics({
    videoJobCounts: () => storage.videoJobs.countByStatus(),
    routeCircuits: () => {
      const { catalog: current, routing } = catalog.current();
      return circuitBreakers.describe(current.models.flatMap((model) => model.routes), routing.circuit_breaker);
    },
    upstreamSlotsHeld: () => keyLimits.upstreamCaps.held(),
    logger,
  });
  // A call's entry settles its budget reservation through the call's own limits; the metrics only watch.
  ledger.onRecord((entry) => metrics.observeLedgerEntry(entry));
  const gatewayStorage = withVideoJobs(storage, settlingVideoJobStore(storage.videoJobs, { budgets, metrics }));
  const drain = new CallDrain();
  const readiness = new Readiness(() => storage.ping(), undefined, keyLimits.pingRedis);
  const contentStore = await openContentStore(config.content);
  const signer = new ContentUrlSigner(await contentUrlSecret(config.content.url_secret, storage.settings));
  const videoWorker = new VideoWorker({
    store: gatewayStorage.videoJobs,
    contentStore,
    catalog: () => catalog.current().catalog,
    owner: workerName(),
    videos: config.videos,
    contentTtlSeconds: config.content.video_ttl_seconds,
    timeoutMs: config.routing.timeout_ms,
    logger,
    now: () => new Date(),
  });
  const services: GatewayServices = {
    config,
    catalog,
    storage: gatewayStorage,
    ledger,
    limits: keyLimits.limits,
    upstreamCaps: keyLimits.upstreamCaps,
    logger,
    authenticator: new Authenticator(verifier, storage.keys, openAccessMode(config), keyUses),
    keyUses,
    contentStore,
    imageContent: new ImageContentPublisher(contentStore, signer, config.content.url_ttl_seconds),
    contentUrlSigner: signer,
    videos: { owner: videoWorker.owner, worker: videoWorker },
    metrics,
    readiness,
    circuitBreakers,
    drain,
  };
  const httpServer = createServer(clientLimits(config), createRequestListener(services));
  httpServer.keepAliveTimeout = config.server.keep_alive_timeout_ms;
  capConnections(httpServer, config.server.max_connections, logger, metrics);
  const server = await listen(httpServer, config.server.host, config.server.port).catch((error: unknown) => {
    throw listenStartFailure(config.server.host, config.server.port, error);
  });
  videoWorker.start();
  keyUses.start();
  const sweeper = new ContentSweeper(
    contentStore,
    { intervalSeconds: config.content.sweep_interval_seconds, ...(config.content.max_bytes === undefined ? {} : { maxBytes: config.content.max_bytes }) },
    logger,
  );
  sweeper.start();
  const port = (server.address() as AddressInfo).port;
  const url = `http://${config.server.host.includes(':') ? `[${config.server.host}]` : config.server.host}:${port}`;
  if (options.logListening !== false) logger.info({ url, models: catalog.current().catalog.models.filter((model) => model.callable).map((model) => model.id) }, 'switchyard listening');
  return {
    url,
    port,
    services,
    async applyConfig(next) {
      const snapshot = await catalogSnapshot(next, await simulatorUrlFor(next));
      catalog.replace(snapshot);
      logger.level = next.log.level;
      logPrices(snapshot, logger);
      return snapshot;
    },
    async close(graceSeconds = config.server.shutdown_grace_seconds) {
      // First: a load balancer asking /ready stops sending traffic while the rest winds down.
      readiness.beginShutdown();
      const graceMs = graceSeconds * 1000;
      // Video steps end (or have their leases released) within the same grace as the calls.
      await Promise.all([drainServer(server, drain, graceMs, logger), videoWorker.stop(graceMs), sweeper.stop()]);
      // Calls cut at the very end record their entries as they unwind; the writer waits for them.
      await Promise.all([ledger.close(), keyUses.close()]);
      // After the ledger: the calls it waited for settled their reservations as they ended.
      await keyLimits.close();
      await simulator?.then((running) => running.close());
      if (options.storage === undefined) await storage.close();
      await closeUpstreamPools().catch(() => undefined);
    },
  };
}

/**
 * Node's own bounds on receiving a request: headers within `headersTimeout` (a slow-loris sender
 * is cut off), the whole request within `requestTimeout` (408), headers no larger than
 * `maxHeaderSize` (431). They cover receiving only, so a long streamed answer is never cut. Node
 * checks the time-outs every `connectionsCheckingInterval` (30 s by default), too coarse for them.
 */
function clientLimits(config: GatewayConfig): ServerOptions {
  const { headers_timeout_ms: headersTimeout, request_timeout_ms: requestTimeout, max_header_bytes: maxHeaderSize } = config.server;
  return {
    // Node refuses a header time-out longer than the request time-out.
    headersTimeout: Math.min(headersTimeout, requestTimeout),
    requestTimeout,
    maxHeaderSize,
    connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(Math.min(headersTimeout, requestTimeout) / 4))),
  };
}

/** A lease owner's name: which machine and process holds a job, unique across restarts. */
function workerName(): string {
  return `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
}

function usesSimulator(config: GatewayConfig): boolean {
  return Object.values(config.providers).some((provider) => provider.base_url === builtinSimulatorUrl);
}

/** Keyless access is only ever automatic on a loopback address. */
function openAccessMode(config: GatewayConfig): OpenAccessMode {
  const mode = config.server.open_access;
  if (mode !== 'auto') return mode;
  return isLoopbackHostname(config.server.host) ? 'auto' : 'never';
}

function listen(server: Server, hostname: string, port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, hostname, () => resolve(server));
  });
}

/** The same storage with another video job store in front of its own. */
function withVideoJobs(storage: Storage, videoJobs: VideoJobStore): Storage {
  return {
    keys: storage.keys,
    ledger: storage.ledger,
    responses: storage.responses,
    settings: storage.settings,
    videoJobs,
    audit: storage.audit,
    dialect: storage.dialect,
    ping: () => storage.ping(),
    migrate: () => storage.migrate(),
    close: () => storage.close(),
  };
}
