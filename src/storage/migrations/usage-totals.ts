import { sql, type Kysely, type Migration } from 'kysely';
import { latencyBucketColumns, rollupCountColumns as countColumns } from '../ledger-increments.js';
import type { StorageDialect } from '../ports.js';

/** Frozen with this migration, like the rollups' own lists in money.ts. */
const summedColumns = [...countColumns.map(([column]) => column), ...latencyBucketColumns];

const columnTypes = {
  sqlite: { timestamp: 'text', money: 'integer', count: 'integer' },
  postgres: { timestamp: 'timestamptz', money: 'bigint', count: 'bigint' },
} as const;

/**
 * `usage_totals`: the rollups' sums per step and bucket over every key and model, kept in the
 * same transaction. A chart of all traffic read `usage_rollups` row by row — one row per key and
 * model in each bucket, about 300,000 hour rows for 30 days of a busy gateway; here it reads one
 * row per bucket. Filled from the rollups already there, so it starts true.
 */
export function usageTotalsMigration(dialect: StorageDialect): Migration {
  const types = columnTypes[dialect];
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      let table = db.schema
        .createTable('usage_totals')
        .addColumn('step', 'text', (column) => column.notNull())
        .addColumn('bucket_start', sql.raw(types.timestamp), (column) => column.notNull());
      for (const column of summedColumns) table = table.addColumn(column, sql.raw(types.count), (definition) => definition.notNull());
      await table
        .addColumn('cost_nano_usd', sql.raw(types.money), (column) => column.notNull())
        .addPrimaryKeyConstraint('usage_totals_pk', ['step', 'bucket_start'])
        // SQLite stores the rows in key order, so a chart's range is a run of adjacent rows.
        .$call((builder) => (dialect === 'sqlite' ? builder.modifyEnd(sql`without rowid`) : builder))
        .execute();
      const columns = sql.join([...summedColumns, 'cost_nano_usd'].map((column) => sql.ref(column)));
      const sums = sql.join([...summedColumns, 'cost_nano_usd'].map((column) => sql`sum(${sql.ref(column)})`));
      await sql`insert into usage_totals (step, bucket_start, ${columns})
        select step, bucket_start, ${sums} from usage_rollups group by step, bucket_start`.execute(db);
    },
  };
}
