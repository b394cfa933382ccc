import type { Kysely, Migration } from 'kysely';
import type { StorageDialect } from '../ports.js';

/**
 * Column types per dialect, frozen with this migration: changing them later would make old and
 * new databases differ, so a later change needs a new migration instead.
 * SQLite INTEGER is 8 bytes, so money fits exactly in both.
 */
const columnTypes = {
  sqlite: { timestamp: 'text', boolean: 'integer', money: 'integer' },
  postgres: { timestamp: 'timestamptz', boolean: 'boolean', money: 'bigint' },
} as const;

export function initialSchemaMigration(dialect: StorageDialect): Migration {
  const types = columnTypes[dialect];
  return {
    // Kysely's Migration type asks for an untyped database; schema building does not use the row types.
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('api_keys')
        .addColumn('id', 'text', (column) => column.primaryKey())
        .addColumn('name', 'text', (column) => column.notNull())
        .addColumn('prefix', 'text', (column) => column.notNull())
        .addColumn('hash', 'text', (column) => column.notNull().unique())
        .addColumn('scope_endpoints', 'text')
        .addColumn('scope_models', 'text')
        .addColumn('budget_nano_usd', types.money)
        .addColumn('rpm', 'integer')
        .addColumn('created_at', types.timestamp, (column) => column.notNull())
        .addColumn('revoked_at', types.timestamp)
        .addColumn('expires_at', types.timestamp)
        .execute();
      await db.schema.createIndex('api_keys_created_at').on('api_keys').columns(['created_at', 'id']).execute();

      await db.schema
        .createTable('usage_ledger')
        .addColumn('request_id', 'text', (column) => column.primaryKey())
        .addColumn('key_id', 'text')
        .addColumn('model', 'text', (column) => column.notNull())
        .addColumn('provider', 'text', (column) => column.notNull())
        .addColumn('upstream_model', 'text', (column) => column.notNull())
        .addColumn('endpoint', 'text', (column) => column.notNull())
        .addColumn('status', 'integer', (column) => column.notNull())
        .addColumn('input_uncached', 'integer', (column) => column.notNull())
        .addColumn('cache_read', 'integer', (column) => column.notNull())
        .addColumn('cache_write', 'integer', (column) => column.notNull())
        .addColumn('output', 'integer', (column) => column.notNull())
        .addColumn('reasoning', 'integer', (column) => column.notNull())
        .addColumn('usage_estimated', types.boolean, (column) => column.notNull())
        .addColumn('cost_nano_usd', types.money, (column) => column.notNull())
        .addColumn('created_at', types.timestamp, (column) => column.notNull())
        .addColumn('duration_ms', 'integer', (column) => column.notNull())
        .execute();
      // Budget checks sum one key's spend; usage reports filter by key and time.
      await db.schema.createIndex('usage_ledger_key_created').on('usage_ledger').columns(['key_id', 'created_at']).execute();
      await db.schema.createIndex('usage_ledger_created').on('usage_ledger').column('created_at').execute();

      await db.schema
        .createTable('stored_responses')
        .addColumn('id', 'text', (column) => column.primaryKey())
        .addColumn('key_id', 'text')
        .addColumn('body', 'text', (column) => column.notNull())
        .addColumn('created_at', types.timestamp, (column) => column.notNull())
        .addColumn('expires_at', types.timestamp)
        .execute();
      await db.schema.createIndex('stored_responses_expires').on('stored_responses').column('expires_at').execute();
    },
  };
}
