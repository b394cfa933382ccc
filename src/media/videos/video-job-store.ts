/**
 * The video job store's port: what a worker in any instance, after any restart, needs to finish a
 * job. One of the stores storage/ports.ts assembles into `Storage`.
 */
import type { LedgerEntry } from '../../metering/ledger-entry.js';

/** `cancelled` is the gateway's own: a job deleted before it finished. Clients never see it (the job is gone). */
export type VideoJobStatus = 'queued' | 'in_progress' | 'completed' | 'failed' | 'cancelled';

export type VideoJobContentVariant = 'video' | 'thumbnail' | 'spritesheet';

/**
 * A video job: everything needed to finish it in any instance after any restart. The provider is
 * kept by its configured name, so its credential is looked up when needed and never stored here.
 */
export interface VideoJobRecord {
  /** `video_…`, the id clients use. */
  readonly id: string;
  readonly keyId: string | null;
  /** The client's `Idempotency-Key`, unique per key. */
  readonly idempotencyKey: string | null;
  /**
   * A digest of the request as submitted (see `videoRequestHash`), so a reused `Idempotency-Key`
   * with another request is told apart in any instance; null for jobs kept before it was recorded.
   */
  readonly requestHash: string | null;
  /** Public model id. */
  readonly model: string;
  /** The configured provider's name. */
  readonly provider: string;
  readonly upstreamModel: string;
  /** Null until the upstream has accepted the job. */
  readonly upstreamJobId: string | null;
  readonly prompt: string;
  readonly mode: string;
  readonly resolution: string;
  readonly aspectRatio: string;
  /** `WxH`. */
  readonly size: string;
  /** The seconds asked for. */
  readonly seconds: number;
  readonly remixedFromVideoId: string | null;
  /** The variant's price in force at submit, pico-USD per second: what completion charges. */
  readonly pricePerSecondPicoUsd: bigint;
  readonly status: VideoJobStatus;
  /** 0–100, never lower than before. */
  readonly progress: number;
  readonly errorCode: string | null;
  readonly errorMessage: string | null;
  readonly createdAt: Date;
  readonly completedAt: Date | null;
  /** When a completed job's content goes away. */
  readonly expiresAt: Date | null;
  /** A job not finished by then fails, free of charge. */
  readonly deadlineAt: Date;
  /** When a worker should next ask the upstream. */
  readonly nextPollAt: Date;
  readonly pollAttempts: number;
  /** The worker (instance) holding the job, and until when; null when nobody does. */
  readonly leaseOwner: string | null;
  readonly leaseExpiresAt: Date | null;
  /** Seconds delivered and charged, once completed. */
  readonly deliveredSeconds: number | null;
  readonly costNanoUsd: bigint | null;
  /** Content keys of what the gateway stored for the job, by variant. */
  readonly contents: Readonly<Partial<Record<VideoJobContentVariant, string>>>;
  readonly deletedAt: Date | null;
}

/** Fields a worker changes while it holds a job's lease. */
export interface VideoJobProgressPatch {
  readonly upstreamJobId?: string;
  /** The route that accepted the job, when a fallback moved it off the first one. */
  readonly provider?: string;
  readonly upstreamModel?: string;
  readonly status?: 'queued' | 'in_progress';
  /** Ignored when lower than the stored progress. */
  readonly progress?: number;
  readonly nextPollAt?: Date;
  readonly pollAttempts?: number;
  /** Renews the lease; the lease is released (owner cleared) when this is null. */
  readonly leaseExpiresAt?: Date | null;
}

/** How a job ends. */
export interface VideoJobEnding {
  readonly status: 'completed' | 'failed' | 'cancelled';
  readonly at: Date;
  readonly errorCode?: string;
  readonly errorMessage?: string;
  readonly expiresAt?: Date;
  readonly deliveredSeconds?: number;
  readonly costNanoUsd: bigint;
  readonly contents?: Readonly<Partial<Record<VideoJobContentVariant, string>>>;
  /**
   * The job's one ledger entry (its request id is the job id), appended in the same transaction
   * as the ending: a job is never ended without its charge, nor charged without ending.
   */
  readonly ledgerEntry?: LedgerEntry;
}

export interface VideoJobListQuery {
  /** Whose jobs: a key id, or null for jobs made without a key. */
  readonly keyId: string | null;
  /** A job id: list the jobs after it in the chosen order. */
  readonly after?: string;
  readonly limit: number;
  /** By creation time (then id); `desc` is newest first. */
  readonly order: 'asc' | 'desc';
}

export interface VideoJobStore {
  /**
   * Inserts a new job. When the key already has a job with the same idempotency key, nothing is
   * inserted and that job is returned with `created: false` (also under concurrent inserts).
   */
  insert(job: VideoJobRecord): Promise<{ readonly job: VideoJobRecord; readonly created: boolean }>;
  /** Undefined when unknown or deleted. */
  get(id: string): Promise<VideoJobRecord | undefined>;
  /** Deleted jobs are left out. */
  list(query: VideoJobListQuery): Promise<{ readonly jobs: VideoJobRecord[]; readonly hasMore: boolean }>;
  /**
   * Takes up to `limit` jobs that are not finished nor deleted, are due (`nextPollAt` ≤ `now`) and
   * are not leased or whose lease has expired, for `owner` until `leaseUntil`. Concurrent callers
   * (in any number of processes) never get the same job while its lease holds.
   */
  claimDue(owner: string, now: Date, leaseUntil: Date, limit: number): Promise<VideoJobRecord[]>;
  /** Applies the patch if `owner` still holds the lease and the job is unfinished and not deleted. */
  updateLeased(id: string, owner: string, patch: VideoJobProgressPatch): Promise<boolean>;
  /**
   * Ends a job unless it has already ended; true only for the one caller that ended it (so only
   * that caller charges). With `owner`, only while that owner holds the lease. Clears the lease.
   */
  finish(id: string, ending: VideoJobEnding, owner?: string): Promise<boolean>;
  /** Marks the job deleted and resolves to it as it was; undefined when unknown or already deleted. */
  markDeleted(id: string, at: Date): Promise<VideoJobRecord | undefined>;
  /** Every key's jobs (deleted ones included), newest first, for administrators. */
  listAll(query: { readonly limit: number; readonly before?: string; readonly status?: VideoJobStatus }): Promise<{ readonly jobs: VideoJobRecord[]; readonly hasMore: boolean }>;
  /** How many jobs are in each state (deleted ones left out), for metrics. */
  countByStatus(): Promise<Readonly<Partial<Record<VideoJobStatus, number>>>>;
}
