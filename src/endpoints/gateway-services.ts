import type { CallDrain } from '../call/call-drain.js';
import type { LiveCatalog } from '../catalog/live-catalog.js';
import type { GatewayConfig } from '../config/config-schema.js';
import type { Logger } from '../logging/logger.js';
import type { ContentStore } from '../media/content-store/content-store.js';
import type { ContentUrlSigner } from '../media/content-store/content-url-signer.js';
import type { ImageContentPublisher } from '../media/images/image-content-publisher.js';
import type { VideoWorker } from '../media/videos/video-worker.js';
import type { KeyLimits } from '../governance/key-limits.js';
import type { KeyUseRecorder } from '../keys/key-use-recorder.js';
import type { LedgerWriter } from '../metering/ledger-writer.js';
import type { GatewayMetrics } from '../observability/gateway-metrics.js';
import type { Readiness } from '../observability/readiness.js';
import type { CircuitBreakers } from '../routing/circuit-breaker.js';
import type { Storage } from '../storage/ports.js';
import type { UpstreamCaps } from '../governance/upstream-caps/upstream-caps.js';
import type { Authenticator } from '../http/authenticate.js';

/** What the HTTP layer needs from the rest of the gateway. */
export interface GatewayServices {
  /**
   * The configuration the gateway started with. Its server, database and log format settings hold
   * until a restart; providers, models, prices and routing reload, so read those from `catalog`.
   */
  readonly config: GatewayConfig;
  /** Take `catalog.current()` once when a call starts and use that snapshot to its end. */
  readonly catalog: LiveCatalog;
  /** Its `videoJobs` hands every ended job's ledger entry to budgets and metrics: end jobs through it. */
  readonly storage: Storage;
  readonly authenticator: Authenticator;
  /** When each key was last used, written off the request path. */
  readonly keyUses: KeyUseRecorder;
  readonly ledger: LedgerWriter;
  readonly limits: KeyLimits;
  /** Providers' `max_concurrency`, held across instances like the key limits. */
  readonly upstreamCaps: UpstreamCaps;
  readonly logger: Logger;
  /** Generated images and videos. */
  readonly contentStore: ContentStore;
  /** Keeps images for `response_format: url` and answers their keyless URLs. */
  readonly imageContent: ImageContentPublisher;
  /** Signs keyless URLs (the console's video players and thumbnails use them). */
  readonly contentUrlSigner: ContentUrlSigner;
  /** This process's video worker, and its name as the owner of the job leases it holds. */
  readonly videos: { readonly owner: string; readonly worker: VideoWorker };
  /** Prometheus metrics (`GET /metrics`). */
  readonly metrics: GatewayMetrics;
  /** Whether this instance should receive traffic (`GET /ready`). */
  readonly readiness: Readiness;
  /** Each route's circuit breaker, in this process (`GET /admin/routes`, `switchyard_route_circuit_state`). */
  readonly circuitBreakers: CircuitBreakers;
  /** The calls in flight, which a shutdown waits for and, after its grace, stops. */
  readonly drain: CallDrain;
}
