import type { Kysely, Migration } from 'kysely';

/**
 * Adds the `images` and `video_seconds` usage buckets to the ledger. Rows written before them
 * were all text calls, so 0 is their true value, not a guess.
 */
export function ledgerMediaBucketsMigration(): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      // One column per statement: SQLite's ALTER TABLE adds a single column at a time. The default
      // stays after the backfill so an instance still running the previous build keeps appending
      // during a rolling upgrade.
      for (const column of ['images', 'video_seconds']) {
        await db.schema
          .alterTable('usage_ledger')
          .addColumn(column, 'integer', (definition) => definition.notNull().defaultTo(0))
          .execute();
      }
    },
  };
}
