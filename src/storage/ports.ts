/**
 * Storage: the stores the gateway opens as one, each port defined by the concept whose records it
 * keeps (keys/, metering/, stored-responses/, media/videos/). Adapters (SQLite, PostgreSQL)
 * implement them; callers never see SQL, drivers or dialects.
 */

import type { ApiKeyStore } from '../keys/api-key-store.js';
import type { AuditLog } from '../keys/audit-log.js';
import type { VideoJobStore } from '../media/videos/video-job-store.js';
import type { UsageLedger } from '../metering/usage-ledger.js';
import type { ResponseStore } from '../stored-responses/response-store.js';

/**
 * Named values the gateway keeps for itself (such as the secret that signs content URLs), shared
 * by every instance on the same database.
 */
export interface SettingsStore {
  get(name: string): Promise<string | undefined>;
  /**
   * Stores `value` unless `name` already has one, and resolves to the value kept: `value`, or the
   * one stored first. Instances racing to store different values all resolve to the same one.
   */
  putIfAbsent(name: string, value: string): Promise<string>;
}

export type StorageDialect = 'sqlite' | 'postgres';

export interface Storage {
  readonly keys: ApiKeyStore;
  readonly ledger: UsageLedger;
  readonly responses: ResponseStore;
  readonly settings: SettingsStore;
  readonly videoJobs: VideoJobStore;
  readonly audit: AuditLog;
  /** Brings the schema up to date; safe to call any number of times. */
  migrate(): Promise<void>;
  /** Resolves when the database answers a trivial query; rejects when it cannot (readiness checks). */
  ping(): Promise<void>;
  close(): Promise<void>;
  readonly dialect: StorageDialect;
}
