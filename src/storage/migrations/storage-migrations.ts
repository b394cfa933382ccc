import type { Migration, MigrationProvider } from 'kysely';
import type { StorageDialect } from '../ports.js';
import { clusteredRollupsMigration } from './clustered-rollups.js';
import { dayReportIndexMigration } from './day-report-index.js';
import { gatewaySettingsMigration } from './gateway-settings.js';
import { initialSchemaMigration } from './initial-schema.js';
import { ledgerKeyPagingMigration } from './ledger-key-paging.js';
import { ledgerMediaBucketsMigration } from './ledger-media-buckets.js';
import { moneyMigration } from './money.js';
import { usageTotalsMigration } from './usage-totals.js';
import { videoJobsMigration } from './video-jobs.js';
import { videoRequestHashMigration } from './video-request-hash.js';

/**
 * The one ordered list of migrations for both dialects. Kysely orders by name, so names start
 * with a zero-padded sequence number; a name, once released, never changes.
 */
export function storageMigrations(dialect: StorageDialect): Record<string, Migration> {
  return {
    '0001_initial_schema': initialSchemaMigration(dialect),
    '0002_ledger_media_buckets': ledgerMediaBucketsMigration(),
    '0003_gateway_settings': gatewaySettingsMigration(),
    '0004_video_jobs': videoJobsMigration(dialect),
    '0005_money': moneyMigration(dialect),
    '0006_ledger_key_paging': ledgerKeyPagingMigration(),
    '0007_usage_totals': usageTotalsMigration(dialect),
    '0008_clustered_rollups': clusteredRollupsMigration(dialect),
    '0009_day_report_index': dayReportIndexMigration(dialect),
    '0010_video_request_hash': videoRequestHashMigration(),
  };
}

/** A static provider, so migrations run from compiled `dist/` without reading the file system. */
export function storageMigrationProvider(dialect: StorageDialect): MigrationProvider {
  return { getMigrations: async () => storageMigrations(dialect) };
}
