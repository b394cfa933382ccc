import { sql, type Kysely, type Migration } from 'kysely';
import type { StorageDialect } from '../ports.js';

/**
 * PostgreSQL only: usage reports by key and model read the day rows of `usage_rollups`, which
 * lie spread over the table's heap among the minute and hour rows (30 days of them read 30,000
 * rows from some 19,000 pages). This partial index holds the day rows alone with every column the
 * report sums, so a report is an index-only range read. SQLite stores the rollups in key order
 * (0008) and needs nothing.
 */
export function dayReportIndexMigration(dialect: StorageDialect): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (dialect !== 'postgres') return;
      await sql`create index usage_rollups_day_report on usage_rollups (bucket_start)
        include (key_scope, model, requests, errors, input_uncached, cache_read, cache_write, output, reasoning, images, video_seconds, cost_nano_usd)
        where step = 'day'`.execute(db);
    },
  };
}
