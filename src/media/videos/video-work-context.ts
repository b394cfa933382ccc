import type { ModelCatalog } from '../../catalog/model-catalog.js';
import type { VideosConfig } from '../../config/config-schema.js';
import type { Logger } from '../../logging/logger.js';
import type { VideoJobStore } from './video-job-store.js';
import type { ContentStore } from '../content-store/content-store.js';

/** What working a video job needs: the stores, the models of the moment, and the settings. */
export interface VideoWorkContext {
  readonly store: VideoJobStore;
  readonly contentStore: ContentStore;
  /** The catalog in force now: a job is finished with its provider's current credential. */
  readonly catalog: () => ModelCatalog;
  /** This process's name as a lease owner. */
  readonly owner: string;
  readonly videos: VideosConfig;
  /** How long finished content is kept. */
  readonly contentTtlSeconds: number;
  /** Time allowed for one upstream call's headers and between its body chunks. */
  readonly timeoutMs: number;
  readonly logger: Logger;
  readonly now: () => Date;
}
