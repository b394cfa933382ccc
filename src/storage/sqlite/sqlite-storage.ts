import type BetterSqlite3 from 'better-sqlite3';
import type { StorageDatabase } from '../kysely/database-schema.js';
import type { ApiKeyStore } from '../../keys/api-key-store.js';
import type { AuditLog } from '../../keys/audit-log.js';
import type { VideoJobStatus, VideoJobStore } from '../../media/videos/video-job-store.js';
import type { UsageLedger } from '../../metering/usage-ledger.js';
import type { SettingsStore, Storage } from '../ports.js';
import type { ResponseStore } from '../../stored-responses/response-store.js';
import { SqliteApiKeyStore } from './sqlite-api-key-store.js';
import { SqliteResponseStore } from './sqlite-response-store.js';
import { sqliteSchemaIsCurrent } from './sqlite-schema-state.js';
import { SqliteSettingsStore } from './sqlite-settings-store.js';
import { SqliteUsageLedger } from './sqlite-usage-ledger.js';
import { writeSqliteTimestamp } from './sqlite-values.js';

/** Builds the Kysely-backed storage over the same connection; loaded on first use only. */
export type KyselyStorageLoader = (database: BetterSqlite3.Database) => Promise<Storage>;

export async function loadKyselyStorage(database: BetterSqlite3.Database): Promise<Storage> {
  const [{ Kysely, SqliteDialect }, { KyselyStorage }, { sqliteValueCodec }] = await Promise.all([
    import('kysely'),
    import('../kysely/kysely-storage.js'),
    import('./sqlite-value-codec.js'),
  ]);
  return new KyselyStorage(new Kysely<StorageDatabase>({ dialect: new SqliteDialect({ database }) }), sqliteValueCodec);
}

/**
 * SQLite storage. Ledger appends, stored-response puts (the hot write paths), open access's
 * "any key yet?" check and the settings read at start run on prepared statements; everything
 * else goes through the shared Kysely stores, which are loaded on first use. Kysely and its
 * migrator cost about 10 MB of resident memory, and an idle gateway whose database is already
 * migrated never needs them: `migrate()` checks the migration table itself.
 */
export class SqliteStorage implements Storage {
  readonly dialect = 'sqlite' as const;
  readonly keys: ApiKeyStore;
  readonly ledger: UsageLedger;
  readonly responses: ResponseStore;
  readonly settings: SettingsStore;
  readonly videoJobs: VideoJobStore;
  readonly audit: AuditLog;
  private kyselyStorage: Promise<Storage> | undefined;
  private closed = false;

  constructor(
    private readonly database: BetterSqlite3.Database,
    private readonly loadKysely: KyselyStorageLoader = loadKyselyStorage,
  ) {
    const kysely = () => this.kysely();
    this.keys = new SqliteApiKeyStore(database, {
      insert: async (record) => (await kysely()).keys.insert(record),
      findByHash: async (hash) => (await kysely()).keys.findByHash(hash),
      findById: async (id) => (await kysely()).keys.findById(id),
      list: async () => (await kysely()).keys.list(),
      revoke: async (id, at) => (await kysely()).keys.revoke(id, at),
      update: async (id, changes) => (await kysely()).keys.update(id, changes),
      rotate: async (id, next, until) => (await kysely()).keys.rotate(id, next, until),
      markUsed: async (uses) => (await kysely()).keys.markUsed(uses),
    });
    this.responses = new SqliteResponseStore(database, {
      get: async (id, now) => (await kysely()).responses.get(id, now),
      delete: async (id) => (await kysely()).responses.delete(id),
    });
    this.settings = new SqliteSettingsStore(database);
    this.ledger = new SqliteUsageLedger(database, {
      list: async (filter) => (await kysely()).ledger.list(filter),
      totals: async (filter) => (await kysely()).ledger.totals(filter),
      spentNanoUsd: async (keyId) => (await kysely()).ledger.spentNanoUsd(keyId),
      usage: async (query) => (await kysely()).ledger.usage(query),
      series: async (query) => (await kysely()).ledger.series(query),
      recent: async (query) => (await kysely()).ledger.recent(query),
      entries: (filter) => lazyIterable(async () => (await kysely()).ledger.entries(filter)),
    });
    // Jobs are no hot path: the shared Kysely store serves them over the same connection.
    this.videoJobs = {
      insert: async (job) => (await kysely()).videoJobs.insert(job),
      get: async (id) => (await kysely()).videoJobs.get(id),
      list: async (query) => (await kysely()).videoJobs.list(query),
      // Every process asks every second: an idle gateway answers from a prepared statement, so
      // it never loads Kysely just to learn there is no work.
      claimDue: async (owner, now, leaseUntil, limit) => (this.anyVideoJobDue(now) ? (await kysely()).videoJobs.claimDue(owner, now, leaseUntil, limit) : []),
      updateLeased: async (id, owner, patch) => (await kysely()).videoJobs.updateLeased(id, owner, patch),
      finish: async (id, ending, owner) => (await kysely()).videoJobs.finish(id, ending, owner),
      markDeleted: async (id, at) => (await kysely()).videoJobs.markDeleted(id, at),
      listAll: async (query) => (await kysely()).videoJobs.listAll(query),
      // Metrics scrapes ask every few seconds: a prepared statement, so scraping never loads Kysely.
      countByStatus: async () => this.videoJobCounts(),
    };
    this.audit = {
      append: async (entry) => (await kysely()).audit.append(entry),
      list: async (query) => (await kysely()).audit.list(query),
    };
  }

  async migrate(): Promise<void> {
    if (sqliteSchemaIsCurrent(this.database)) return;
    await (await this.kysely()).migrate();
  }

  private pingStatement: BetterSqlite3.Statement<[]> | undefined;

  /** A prepared `select 1`: a readiness probe every few seconds must not load Kysely. */
  async ping(): Promise<void> {
    if (this.closed) throw new Error('The SQLite storage is closed.');
    this.pingStatement ??= this.database.prepare('select 1');
    this.pingStatement.get();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // Kysely's destroy closes the shared connection; without Kysely we close it ourselves.
    if (this.kyselyStorage === undefined) this.database.close();
    else await (await this.kyselyStorage).close();
  }

  private dueVideoJob: BetterSqlite3.Statement<[string]> | undefined;

  /** Whether any unfinished job may be due at `now` (leases are judged by the real claim). */
  private anyVideoJobDue(now: Date): boolean {
    this.dueVideoJob ??= this.database.prepare(
      "select 1 from video_jobs where status in ('queued', 'in_progress') and deleted_at is null and next_poll_at <= ? limit 1",
    );
    return this.dueVideoJob.get(writeSqliteTimestamp(now)) !== undefined;
  }

  private videoJobCountsStatement: BetterSqlite3.Statement<[], { status: VideoJobStatus; jobs: number }> | undefined;

  private videoJobCounts(): Partial<Record<VideoJobStatus, number>> {
    if (this.closed) throw new Error('The SQLite storage is closed.');
    this.videoJobCountsStatement ??= this.database.prepare('select status, count(*) as jobs from video_jobs where deleted_at is null group by status');
    return Object.fromEntries(this.videoJobCountsStatement.all().map((row) => [row.status, row.jobs]));
  }

  private kysely(): Promise<Storage> {
    if (this.closed) return Promise.reject(new Error('The SQLite storage is closed.'));
    this.kyselyStorage ??= this.loadKysely(this.database);
    return this.kyselyStorage;
  }
}

/** An iterable whose source is found on first iteration (here: once Kysely is loaded). */
async function* lazyIterable<T>(source: () => Promise<AsyncIterable<T>>): AsyncIterable<T> {
  yield* await source();
}
