import { sql, type Kysely, type Migration } from 'kysely';
import { latencyBucketColumns, rollupCountColumns as countColumns } from '../ledger-increments.js';
import type { StorageDialect } from '../ports.js';

/** Frozen with this migration, like the rollups' own lists in money.ts. */
const rollupColumns = ['step', 'bucket_start', 'key_scope', 'model', ...countColumns.map(([column]) => column), ...latencyBucketColumns, 'cost_nano_usd'];

/**
 * SQLite only: `usage_rollups` becomes a WITHOUT ROWID table, stored in its primary key's order
 * (step, bucket start, key, model). As a rowid table its rows lay in the order they were first
 * written — each day's row among that day's minute rows — so a 30-day report read some 30,000
 * rows from as many pages; now a range of one step is a run of adjacent pages. Upserts also
 * touch one b-tree instead of the table and its key index. PostgreSQL keeps no such order
 * (CLUSTER would not last): nothing to do there.
 */
export function clusteredRollupsMigration(dialect: StorageDialect): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (dialect !== 'sqlite') return;
      let table = db.schema
        .createTable('usage_rollups_clustered')
        .addColumn('step', 'text', (column) => column.notNull())
        .addColumn('bucket_start', 'text', (column) => column.notNull())
        .addColumn('key_scope', 'text', (column) => column.notNull())
        .addColumn('model', 'text', (column) => column.notNull());
      for (const column of rollupColumns.slice(4)) table = table.addColumn(column, 'integer', (definition) => definition.notNull());
      await table
        .addPrimaryKeyConstraint('usage_rollups_pk', ['step', 'bucket_start', 'key_scope', 'model'])
        .modifyEnd(sql`without rowid`)
        .execute();
      const columns = sql.join(rollupColumns.map((column) => sql.ref(column)));
      await sql`insert into usage_rollups_clustered (${columns}) select ${columns} from usage_rollups order by step, bucket_start, key_scope, model`.execute(db);
      await db.schema.dropTable('usage_rollups').execute();
      await db.schema.alterTable('usage_rollups_clustered').renameTo('usage_rollups').execute();
    },
  };
}
