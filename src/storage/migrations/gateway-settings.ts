import type { Kysely, Migration } from 'kysely';

/**
 * Adds `gateway_settings`: named values the gateway generates once and every instance sharing
 * the database must agree on (the content URL signing secret). Text in both dialects.
 */
export function gatewaySettingsMigration(): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('gateway_settings')
        .addColumn('name', 'text', (column) => column.primaryKey())
        .addColumn('value', 'text', (column) => column.notNull())
        .execute();
    },
  };
}
