import type { Kysely, Migration } from 'kysely';
import type { StorageDialect } from '../ports.js';

/** The same per-dialect column types as the initial schema, frozen here for this table. */
const columnTypes = {
  sqlite: { timestamp: 'text', money: 'integer' },
  postgres: { timestamp: 'timestamptz', money: 'bigint' },
} as const;

/**
 * Adds `video_jobs`: one row per video job, holding all a worker in any instance needs to finish
 * it. `key_scope` is the key id or '' for keyless jobs, so the idempotency index treats keyless
 * jobs as one owner (NULLs would never collide in a unique index).
 */
export function videoJobsMigration(dialect: StorageDialect): Migration {
  const types = columnTypes[dialect];
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('video_jobs')
        .addColumn('id', 'text', (column) => column.primaryKey())
        .addColumn('key_id', 'text')
        .addColumn('key_scope', 'text', (column) => column.notNull())
        .addColumn('idempotency_key', 'text')
        .addColumn('model', 'text', (column) => column.notNull())
        .addColumn('provider', 'text', (column) => column.notNull())
        .addColumn('upstream_model', 'text', (column) => column.notNull())
        .addColumn('upstream_job_id', 'text')
        .addColumn('prompt', 'text', (column) => column.notNull())
        .addColumn('mode', 'text', (column) => column.notNull())
        .addColumn('resolution', 'text', (column) => column.notNull())
        .addColumn('aspect_ratio', 'text', (column) => column.notNull())
        .addColumn('size', 'text', (column) => column.notNull())
        .addColumn('seconds', 'integer', (column) => column.notNull())
        .addColumn('remixed_from_video_id', 'text')
        .addColumn('price_per_second_pico_usd', types.money, (column) => column.notNull())
        .addColumn('status', 'text', (column) => column.notNull())
        .addColumn('progress', 'integer', (column) => column.notNull())
        .addColumn('error_code', 'text')
        .addColumn('error_message', 'text')
        .addColumn('created_at', types.timestamp, (column) => column.notNull())
        .addColumn('completed_at', types.timestamp)
        .addColumn('expires_at', types.timestamp)
        .addColumn('deadline_at', types.timestamp, (column) => column.notNull())
        .addColumn('next_poll_at', types.timestamp, (column) => column.notNull())
        .addColumn('poll_attempts', 'integer', (column) => column.notNull())
        .addColumn('lease_owner', 'text')
        .addColumn('lease_expires_at', types.timestamp)
        .addColumn('delivered_seconds', 'integer')
        .addColumn('cost_nano_usd', types.money)
        .addColumn('contents', 'text', (column) => column.notNull())
        .addColumn('deleted_at', types.timestamp)
        .execute();
      await db.schema.createIndex('video_jobs_idempotency').on('video_jobs').columns(['key_scope', 'idempotency_key']).unique().execute();
      await db.schema.createIndex('video_jobs_key_created').on('video_jobs').columns(['key_scope', 'created_at', 'id']).execute();
      // Workers ask for unfinished jobs by due time, every second in every instance.
      await db.schema.createIndex('video_jobs_due').on('video_jobs').columns(['status', 'next_poll_at']).execute();
    },
  };
}
