import { Migrator, sql, type Kysely } from 'kysely';
import { storageMigrationProvider } from '../migrations/storage-migrations.js';
import type { ApiKeyStore } from '../../keys/api-key-store.js';
import type { AuditLog } from '../../keys/audit-log.js';
import type { VideoJobStore } from '../../media/videos/video-job-store.js';
import type { UsageLedger } from '../../metering/usage-ledger.js';
import type { SettingsStore, Storage, StorageDialect } from '../ports.js';
import type { ResponseStore } from '../../stored-responses/response-store.js';
import type { StorageDatabase } from './database-schema.js';
import { KyselyApiKeyStore } from './kysely-api-key-store.js';
import { KyselyAuditLog } from './kysely-audit-log.js';
import { KyselyResponseStore } from './kysely-response-store.js';
import { KyselySettingsStore } from './kysely-settings-store.js';
import { KyselyUsageLedger } from './kysely-usage-ledger.js';
import { KyselyVideoJobStore } from './kysely-video-job-store.js';
import type { SqlValueCodec } from './sql-value-codec.js';

/** The one Storage implementation; the adapters only supply a Kysely instance and a codec. */
export class KyselyStorage implements Storage {
  readonly keys: ApiKeyStore;
  readonly ledger: UsageLedger;
  readonly responses: ResponseStore;
  readonly settings: SettingsStore;
  readonly videoJobs: VideoJobStore;
  readonly audit: AuditLog;
  readonly dialect: StorageDialect;

  constructor(private readonly db: Kysely<StorageDatabase>, codec: SqlValueCodec) {
    this.dialect = codec.dialect;
    this.keys = new KyselyApiKeyStore(db, codec);
    this.ledger = new KyselyUsageLedger(db, codec);
    this.responses = new KyselyResponseStore(db, codec);
    this.settings = new KyselySettingsStore(db);
    this.videoJobs = new KyselyVideoJobStore(db, codec);
    this.audit = new KyselyAuditLog(db, codec);
  }

  async migrate(): Promise<void> {
    const migrator = new Migrator({ db: this.db, provider: storageMigrationProvider(this.dialect) });
    const { error, results } = await migrator.migrateToLatest();
    if (error !== undefined) {
      const failed = results?.find((result) => result.status === 'Error')?.migrationName;
      const message = failed === undefined ? 'Database migration failed.' : `Database migration ${failed} failed.`;
      throw new Error(message, { cause: error });
    }
  }

  async ping(): Promise<void> {
    await sql`select 1`.execute(this.db);
  }

  async close(): Promise<void> {
    await this.db.destroy();
  }
}
