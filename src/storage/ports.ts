/**
 * Storage ports: what the rest of the gateway may ask of persistent storage. Adapters (SQLite,
 * PostgreSQL) implement these; callers never see SQL, drivers or dialects.
 */

import type { VideoJobStore } from './video-job-ports.js';

/** What a key may call; `null` means "everything", an empty list means "nothing". */
export interface ApiKeyScopes {
  readonly endpoints: readonly string[] | null;
  readonly models: readonly string[] | null;
}

export interface ApiKeyRecord {
  readonly id: string;
  readonly name: string;
  /** The first characters of the key, safe to show in lists so an operator can recognise it. */
  readonly prefix: string;
  /** Hex SHA-256 of the full key; the key itself is never stored. */
  readonly hash: string;
  readonly scopes: ApiKeyScopes;
  /** May call `/admin` (and every `/v1` endpoint and model). */
  readonly admin: boolean;
  /** Spending cap over the key's whole life in nano-USD (1e-9 USD); `null` means unlimited. */
  readonly budgetNanoUsd: bigint | null;
  /** Spending cap per UTC day, nano-USD. */
  readonly dailyBudgetNanoUsd: bigint | null;
  /** Spending cap per UTC calendar month, nano-USD. */
  readonly monthlyBudgetNanoUsd: bigint | null;
  /** Requests per minute; `null` means no key-specific limit. */
  readonly rpm: number | null;
  /** Tokens per minute, charged from the usage upstreams report. */
  readonly tpm: number | null;
  /** Calls in flight at once (a stream counts until it ends). */
  readonly concurrency: number | null;
  readonly createdAt: Date;
  readonly revokedAt: Date | null;
  readonly expiresAt: Date | null;
  /** Recorded off the request path, so it may lag by a few seconds. */
  readonly lastUsedAt: Date | null;
  /** After a rotation, the old secret's hash, valid until `previousHashExpiresAt`. */
  readonly previousHash: string | null;
  readonly previousHashExpiresAt: Date | null;
}

/** What an operator may change on a key; absent fields stay as they are, `null` clears. */
export interface ApiKeyChanges {
  readonly name?: string;
  readonly scopes?: Partial<ApiKeyScopes>;
  readonly budgetNanoUsd?: bigint | null;
  readonly dailyBudgetNanoUsd?: bigint | null;
  readonly monthlyBudgetNanoUsd?: bigint | null;
  readonly rpm?: number | null;
  readonly tpm?: number | null;
  readonly concurrency?: number | null;
  readonly expiresAt?: Date | null;
}

export interface ApiKeyStore {
  /** Rejects when the id or the hash already exists. */
  insert(record: ApiKeyRecord): Promise<void>;
  /**
   * The key whose hash, or whose previous hash (after a rotation), is `hash`. Returns revoked and
   * expired keys and stale previous hashes too: the caller decides what they mean.
   */
  findByHash(hash: string): Promise<ApiKeyRecord | undefined>;
  findById(id: string): Promise<ApiKeyRecord | undefined>;
  /** Every key, newest first. */
  list(): Promise<ApiKeyRecord[]>;
  /**
   * True once any key has ever been stored, revoked and expired ones included: open access ends
   * with the first key and never comes back. Asked on every anonymous call while access is open,
   * so adapters answer it with one query that stops at the first row.
   */
  anyExists(): Promise<boolean>;
  /** False when the key is unknown or already revoked (the first revocation time is kept). */
  revoke(id: string, at: Date): Promise<boolean>;
  /** Applies the changes; undefined when the key is unknown. */
  update(id: string, changes: ApiKeyChanges): Promise<ApiKeyRecord | undefined>;
  /**
   * Gives the key a new secret; the current one stays valid until `previousValidUntil`.
   * Undefined when the key is unknown or revoked.
   */
  rotate(id: string, next: { readonly prefix: string; readonly hash: string }, previousValidUntil: Date): Promise<ApiKeyRecord | undefined>;
  /** Records when keys were last used; a time earlier than the one stored is ignored. */
  markUsed(uses: readonly { readonly id: string; readonly at: Date }[]): Promise<void>;
}

/** One administrative action, as `/admin/audit` shows it. */
export interface AuditEntry {
  readonly id: string;
  readonly at: Date;
  /** The admin key that acted; null for the command line. */
  readonly actorKeyId: string | null;
  /** e.g. `key.create`, `key.update`, `key.revoke`, `key.rotate`. */
  readonly action: string;
  readonly targetId: string | null;
  /** What changed, never a secret. */
  readonly details: Readonly<Record<string, unknown>>;
}

export interface AuditLog {
  append(entry: AuditEntry): Promise<void>;
  /** Newest first; `before` is an entry id to page from. */
  list(query: { readonly limit: number; readonly before?: string }): Promise<{ readonly entries: AuditEntry[]; readonly hasMore: boolean }>;
}

/** Endpoint families written to the ledger; open-ended so new families need no port change. */
export type LedgerEndpoint = 'chat' | 'responses' | 'messages' | 'images' | 'videos' | (string & {});

export interface LedgerEntry {
  readonly requestId: string;
  readonly keyId: string | null;
  /** Public model id, as the client named it after alias resolution. */
  readonly model: string;
  readonly provider: string;
  readonly upstreamModel: string;
  readonly endpoint: LedgerEndpoint;
  /** HTTP status the client received. */
  readonly status: number;
  readonly inputUncached: number;
  readonly cacheRead: number;
  readonly cacheWrite: number;
  readonly output: number;
  readonly reasoning: number;
  /** Images returned to the client; 0 for text calls. */
  readonly images: number;
  /** Whole seconds of video delivered; 0 for everything but a finished video job. */
  readonly videoSeconds: number;
  /** True when the upstream gave no usage and the gateway counted it. */
  readonly usageEstimated: boolean;
  readonly costNanoUsd: bigint;
  readonly createdAt: Date;
  readonly durationMs: number;
}

export interface LedgerListFilter {
  readonly keyId?: string;
  /** Inclusive lower bound on `createdAt`. */
  readonly since?: Date;
  /** Maximum number of entries; all matching entries when absent. */
  readonly limit?: number;
}

export interface LedgerTotalsFilter {
  readonly keyId?: string;
  /** Inclusive lower bound on `createdAt`. */
  readonly since?: Date;
}

/** Ledger sums for one key, one model and one UTC day. */
export interface LedgerTotals {
  readonly keyId: string | null;
  readonly model: string;
  /** UTC calendar day, `YYYY-MM-DD`. */
  readonly day: string;
  readonly requests: number;
  /** Uncached input + cache read + cache write. */
  readonly inputTokens: number;
  /** Visible output + reasoning. */
  readonly outputTokens: number;
  readonly cacheReadTokens: number;
  readonly cacheWriteTokens: number;
  readonly reasoningTokens: number;
  readonly images: number;
  readonly videoSeconds: number;
  readonly costNanoUsd: bigint;
}

/** A key's running spend totals, nano-USD. */
export interface KeySpend {
  readonly total: bigint;
  /** In the UTC calendar month of the time asked about. */
  readonly month: bigint;
  /** On the UTC day of the time asked about. */
  readonly day: bigint;
}

export type UsageGrouping = 'key' | 'model' | 'day';

export interface UsageQuery {
  readonly groupBy: UsageGrouping;
  /** The rollups summed: `day` (the default) or `hour`, for a range shorter than a day. */
  readonly step?: 'hour' | 'day';
  /** Inclusive; rounded down to its step (UTC). */
  readonly since?: Date;
  /** Exclusive; rounded up to its step (UTC). */
  readonly until?: Date;
  readonly keyId?: string;
}

/** Sums for one group: a key (`group` is the key id, '' without a key), a model or a UTC day. */
export interface UsageGroup {
  readonly group: string;
  readonly requests: number;
  readonly errors: number;
  readonly inputUncached: number;
  readonly cacheRead: number;
  readonly cacheWrite: number;
  readonly output: number;
  readonly reasoning: number;
  readonly images: number;
  readonly videoSeconds: number;
  readonly costNanoUsd: bigint;
}

export type SeriesMetric = 'requests' | 'cost' | 'errors' | 'latency_p50' | 'latency_p95';
export type SeriesStep = 'minute' | 'hour' | 'day';

export interface SeriesQuery {
  readonly metric: SeriesMetric;
  readonly step: SeriesStep;
  /** Inclusive bucket start. */
  readonly since: Date;
  /** Exclusive. */
  readonly until: Date;
  readonly keyId?: string;
  readonly model?: string;
}

/** One bucket with data (empty buckets are left out). Cost is nano-USD; latency is milliseconds. */
export interface SeriesPoint {
  readonly at: Date;
  readonly value: number | bigint;
}

/** Where a page of recent calls starts: strictly older than this entry. */
export interface LedgerCursor {
  readonly createdAt: Date;
  readonly requestId: string;
}

export interface LedgerExportFilter {
  readonly since?: Date;
  /** Exclusive. */
  readonly until?: Date;
  readonly keyId?: string;
  readonly model?: string;
}

export interface UsageLedger {
  /**
   * Appends once per request id. A repeated request id is ignored (the first entry stays as it
   * was) and yields false; it never throws for that reason.
   */
  append(entry: LedgerEntry): Promise<boolean>;
  /**
   * Appends many entries in one go (one statement per chunk, or one transaction), with the same
   * once-per-request-id rule; resolves to how many were new. This is how the gateway writes.
   */
  appendMany(entries: readonly LedgerEntry[]): Promise<number>;
  /** Matching entries, newest first. */
  list(filter?: LedgerListFilter): Promise<LedgerEntry[]>;
  /** Sums grouped by key, model and UTC day, ordered by day, then key, then model. */
  totals(filter?: LedgerTotalsFilter): Promise<LedgerTotals[]>;
  /** Everything a key has spent, over its whole life. */
  spentNanoUsd(keyId: string): Promise<bigint>;
  /** A key's running totals for its whole life, and the UTC month and day of `at`: three indexed rows. */
  spend(keyId: string, at: Date): Promise<KeySpend>;
  /** Sums by key, model or day, from the daily rollups. */
  usage(query: UsageQuery): Promise<UsageGroup[]>;
  /** A metric per bucket, from the rollups of that step. */
  series(query: SeriesQuery): Promise<SeriesPoint[]>;
  /** The most recent entries, newest first, from `before` on. */
  recent(query: { readonly limit: number; readonly before?: LedgerCursor; readonly keyId?: string }): Promise<LedgerEntry[]>;
  /** Every matching entry, oldest first, read in pages so any number can be streamed. */
  entries(filter: LedgerExportFilter): AsyncIterable<LedgerEntry>;
}

export interface StoredResponseRecord {
  readonly id: string;
  readonly keyId: string | null;
  /** The response as JSON text, exactly as it will be served back. */
  readonly body: string;
  readonly createdAt: Date;
  readonly expiresAt: Date | null;
}

export interface ResponseStore {
  /**
   * Stores the record unless one with its id is already stored; resolves false when one was (it
   * is kept as it was). A stored response is never replaced by another.
   */
  putIfAbsent(record: StoredResponseRecord): Promise<boolean>;
  /** Undefined when unknown or expired at `now`. */
  get(id: string, now?: Date): Promise<StoredResponseRecord | undefined>;
  /** False when there was nothing to delete. */
  delete(id: string): Promise<boolean>;
}

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


export type {
  VideoJobContentVariant,
  VideoJobEnding,
  VideoJobListQuery,
  VideoJobProgressPatch,
  VideoJobRecord,
  VideoJobStatus,
  VideoJobStore,
} from './video-job-ports.js';

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
