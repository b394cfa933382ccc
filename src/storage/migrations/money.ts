import { sql, type Kysely, type Migration } from 'kysely';
import { latencyBucketBoundsMs, latencyBucketColumns, rollupCountColumns as countColumns } from '../ledger-increments.js';
import type { StorageDialect } from '../ports.js';

/** The lists are shared with the writers; a released migration is frozen, so they only ever grow through a new one. */
const rollupCountColumns = countColumns.map(([column]) => column);

/** The same per-dialect column types as the initial schema, frozen here for these tables. */
const columnTypes = {
  sqlite: { timestamp: 'text', boolean: 'integer', money: 'integer', count: 'integer', false: sql`0` },
  postgres: { timestamp: 'timestamptz', boolean: 'boolean', money: 'bigint', count: 'bigint', false: sql`false` },
} as const;

/**
 * Money and administration:
 * - api_keys gain the admin flag, token and concurrency limits, daily and monthly budgets,
 *   `last_used_at` and a previous hash that stays valid for a grace period after a rotation;
 * - `key_spend` holds each key's running totals (`all`, `YYYY-MM`, `YYYY-MM-DD`), maintained in the
 *   same transaction as the ledger rows they sum, so a budget check reads three rows, not history;
 * - `usage_rollups` holds per-minute, per-hour and per-day aggregates by key and model, the same way,
 *   for usage reports and charts;
 * - `admin_audit` records every administrative action.
 * Rows already in the ledger are summed into the new tables here, so they start true.
 */
export function moneyMigration(dialect: StorageDialect): Migration {
  const types = columnTypes[dialect];
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      const keyColumns: [string, string, boolean][] = [
        ['is_admin', types.boolean, true],
        ['tpm', 'integer', false],
        ['concurrency', 'integer', false],
        ['daily_budget_nano_usd', types.money, false],
        ['monthly_budget_nano_usd', types.money, false],
        ['last_used_at', types.timestamp, false],
        ['previous_hash', 'text', false],
        ['previous_hash_expires_at', types.timestamp, false],
      ];
      // One column per statement: SQLite's ALTER TABLE adds a single column at a time.
      for (const [name, type, flag] of keyColumns) {
        await db.schema
          .alterTable('api_keys')
          .addColumn(name, sql.raw(type), (column) => (flag ? column.notNull().defaultTo(types.false) : column))
          .execute();
      }
      await db.schema.createIndex('api_keys_previous_hash').on('api_keys').column('previous_hash').execute();

      await db.schema
        .createTable('key_spend')
        .addColumn('key_id', 'text', (column) => column.notNull())
        .addColumn('period', 'text', (column) => column.notNull())
        .addColumn('cost_nano_usd', sql.raw(types.money), (column) => column.notNull())
        .addPrimaryKeyConstraint('key_spend_pk', ['key_id', 'period'])
        .execute();

      let rollups = db.schema
        .createTable('usage_rollups')
        .addColumn('step', 'text', (column) => column.notNull())
        .addColumn('bucket_start', sql.raw(types.timestamp), (column) => column.notNull())
        // The key id, or '' for calls made without a key (NULL would never match in the primary key).
        .addColumn('key_scope', 'text', (column) => column.notNull())
        .addColumn('model', 'text', (column) => column.notNull());
      for (const column of [...rollupCountColumns, ...latencyBucketColumns]) {
        rollups = rollups.addColumn(column, sql.raw(types.count), (definition) => definition.notNull());
      }
      await rollups
        .addColumn('cost_nano_usd', sql.raw(types.money), (column) => column.notNull())
        .addPrimaryKeyConstraint('usage_rollups_pk', ['step', 'bucket_start', 'key_scope', 'model'])
        .execute();

      await db.schema
        .createTable('admin_audit')
        .addColumn('id', 'text', (column) => column.primaryKey())
        .addColumn('at', sql.raw(types.timestamp), (column) => column.notNull())
        .addColumn('actor_key_id', 'text')
        .addColumn('action', 'text', (column) => column.notNull())
        .addColumn('target_id', 'text')
        .addColumn('details', 'text', (column) => column.notNull())
        .execute();
      await db.schema.createIndex('admin_audit_at').on('admin_audit').columns(['at', 'id']).execute();

      // Recent calls are paged by (created_at, request_id); the old single-column index is its prefix.
      await db.schema.createIndex('usage_ledger_created_request').on('usage_ledger').columns(['created_at', 'request_id']).execute();
      await db.schema.dropIndex('usage_ledger_created').execute();
      await db.schema.createIndex('video_jobs_created').on('video_jobs').columns(['created_at', 'id']).execute();

      await backfill(db, dialect);
    },
  };
}

async function backfill(db: Kysely<unknown>, dialect: StorageDialect): Promise<void> {
  const truncate = dialect === 'sqlite' ? sqliteTruncations : postgresTruncations;
  await sql`insert into key_spend (key_id, period, cost_nano_usd)
    select key_id, 'all', sum(cost_nano_usd) from usage_ledger where key_id is not null group by key_id`.execute(db);
  for (const period of [truncate.month, truncate.day]) {
    await sql`insert into key_spend (key_id, period, cost_nano_usd)
      select key_id, ${period}, sum(cost_nano_usd) from usage_ledger where key_id is not null group by key_id, ${period}`.execute(db);
  }
  const histogram = latencyBucketColumns.map((_, index) => {
    const lower = index === 0 ? -1 : latencyBucketBoundsMs[index - 1];
    const upper = latencyBucketBoundsMs[index];
    const condition = upper === undefined ? sql`duration_ms > ${sql.lit(lower)}` : sql`duration_ms > ${sql.lit(lower)} and duration_ms <= ${sql.lit(upper)}`;
    return sql`sum(case when ${condition} then 1 else 0 end)`;
  });
  for (const [step, bucket] of [['minute', truncate.minuteStart], ['hour', truncate.hourStart], ['day', truncate.dayStart]] as const) {
    await sql`insert into usage_rollups (step, bucket_start, key_scope, model, ${sql.join(rollupCountColumns.map((column) => sql.ref(column)))},
        ${sql.join(latencyBucketColumns.map((column) => sql.ref(column)))}, cost_nano_usd)
      select ${step}, ${bucket}, coalesce(key_id, ''), model, count(*), sum(case when status >= 400 then 1 else 0 end),
        sum(input_uncached), sum(cache_read), sum(cache_write), sum(output), sum(reasoning), sum(images), sum(video_seconds),
        sum(duration_ms), ${sql.join(histogram)}, sum(cost_nano_usd)
      from usage_ledger group by ${bucket}, coalesce(key_id, ''), model`.execute(db);
  }
}

/** ISO text in SQLite: a period or bucket start is a prefix of `created_at`, padded back to a timestamp. */
const sqliteTruncations = {
  month: sql`substr(created_at, 1, 7)`,
  day: sql`substr(created_at, 1, 10)`,
  minuteStart: sql`substr(created_at, 1, 16) || ':00.000Z'`,
  hourStart: sql`substr(created_at, 1, 13) || ':00:00.000Z'`,
  dayStart: sql`substr(created_at, 1, 10) || 'T00:00:00.000Z'`,
};

const postgresTruncations = {
  month: sql`to_char(created_at at time zone 'UTC', 'YYYY-MM')`,
  day: sql`to_char(created_at at time zone 'UTC', 'YYYY-MM-DD')`,
  minuteStart: sql`date_trunc('minute', created_at at time zone 'UTC') at time zone 'UTC'`,
  hourStart: sql`date_trunc('hour', created_at at time zone 'UTC') at time zone 'UTC'`,
  dayStart: sql`date_trunc('day', created_at at time zone 'UTC') at time zone 'UTC'`,
};
