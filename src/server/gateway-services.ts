import type { CallDrain } from './call-drain.js';
import type { LiveCatalog } from '../catalog/live-catalog.js';
import type { GatewayConfig } from '../config/config-schema.js';
import type { Logger } from '../logging/logger.js';
import type { ContentStore } from '../media/content-store/content-store.js';
import type { ImageContentPublisher } from '../media/images/image-content-publisher.js';
import type { VideoWorker } from '../media/videos/video-worker.js';
import type { KeyLimits } from '../limits/key-limits.js';
import type { KeyUseRecorder } from '../keys/key-use-recorder.js';
import type { LedgerWriter } from '../metering/ledger-writer.js';
import type { GatewayMetrics } from '../observability/gateway-metrics.js';
import type { Readiness } from '../observability/readiness.js';
import type { Storage } from '../storage/ports.js';
import type { Authenticator } from './authenticate.js';

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
  readonly logger: Logger;
  /** Generated images and videos. */
  readonly contentStore: ContentStore;
  /** Keeps images for `response_format: url` and answers their keyless URLs. */
  readonly imageContent: ImageContentPublisher;
  /** This process's video worker, and its name as the owner of the job leases it holds. */
  readonly videos: { readonly owner: string; readonly worker: VideoWorker };
  /** Prometheus metrics (`GET /metrics`). */
  readonly metrics: GatewayMetrics;
  /** Whether this instance should receive traffic (`GET /ready`). */
  readonly readiness: Readiness;
  /** The calls in flight, which a shutdown waits for and, after its grace, stops. */
  readonly drain: CallDrain;
}
