import { sql, type Kysely, type RawBuilder } from 'kysely';
import { latencyPercentileMs } from '../latency-percentile.js';
import { latencyBucketColumns } from '../ledger-increments.js';
import type { SeriesPoint, SeriesQuery, UsageGroup, UsageQuery } from '../../metering/usage-ledger.js';
import type { StorageDatabase } from './database-schema.js';
import type { SqlValueCodec } from './sql-value-codec.js';
import { readBigInt, readDate, readNumber } from './sql-values.js';

const dayMs = 86_400_000;
const hourMs = 3_600_000;

/** Start of the UTC bucket of `size` ms holding `at`. */
function floorTo(size: number, at: Date): Date {
  return new Date(Math.floor(at.getTime() / size) * size);
}

/** `at` if it starts a UTC bucket of `size` ms, else the start of the next one. */
function ceilingTo(size: number, at: Date): Date {
  return new Date(Math.ceil(at.getTime() / size) * size);
}

const summed = (column: string) => sql<unknown>`sum(${sql.ref(column)})`;

/**
 * Where sums over every key and model come from: `usage_totals`, one row per bucket, rather than
 * every key's and model's row of it. The totals have the rollups' columns but `key_scope` and
 * `model`, which are only filtered on when the rollups are read, hence the one type here.
 */
function rollupSource(overEveryKeyAndModel: boolean): 'usage_rollups' {
  return (overEveryKeyAndModel ? 'usage_totals' : 'usage_rollups') as 'usage_rollups';
}

/**
 * Sums by key, model or UTC day from the per-day rollups (or the per-hour ones, for a range shorter
 * than a day): a few rows per key, model and bucket however many calls they sum (per bucket alone
 * for the days of every key). `since` is rounded down and `until` up to whole buckets, which is all
 * the rows can tell apart. Groups come in ascending order of their name.
 */
export async function readUsage(db: Kysely<StorageDatabase>, codec: SqlValueCodec, query: UsageQuery): Promise<UsageGroup[]> {
  const step = query.step ?? 'day';
  const size = step === 'hour' ? hourMs : dayMs;
  const group: RawBuilder<string> =
    query.groupBy === 'key' ? sql<string>`${sql.ref('key_scope')}` : query.groupBy === 'model' ? sql<string>`${sql.ref('model')}` : codec.utcDay('bucket_start');
  let select = db
    .selectFrom(rollupSource(query.groupBy === 'day' && query.keyId === undefined))
    .select([
      group.as('grouped'),
      summed('requests').as('requests'),
      summed('errors').as('errors'),
      summed('input_uncached').as('input_uncached'),
      summed('cache_read').as('cache_read'),
      summed('cache_write').as('cache_write'),
      summed('output').as('output'),
      summed('reasoning').as('reasoning'),
      summed('images').as('images'),
      summed('video_seconds').as('video_seconds'),
      sql<string>`cast(sum(${sql.ref('cost_nano_usd')}) as text)`.as('cost_nano_usd'),
    ])
    .where('step', '=', step)
    .groupBy(group)
    .orderBy(group);
  if (query.since !== undefined) select = select.where('bucket_start', '>=', codec.writeTimestamp(floorTo(size, query.since)));
  if (query.until !== undefined) select = select.where('bucket_start', '<', codec.writeTimestamp(ceilingTo(size, query.until)));
  if (query.keyId !== undefined) select = select.where('key_scope', '=', query.keyId);
  const rows = await select.execute();
  return rows.map((row) => ({
    group: row.grouped,
    requests: readNumber(row.requests),
    errors: readNumber(row.errors),
    inputUncached: readNumber(row.input_uncached),
    cacheRead: readNumber(row.cache_read),
    cacheWrite: readNumber(row.cache_write),
    output: readNumber(row.output),
    reasoning: readNumber(row.reasoning),
    images: readNumber(row.images),
    videoSeconds: readNumber(row.video_seconds),
    costNanoUsd: readBigInt(row.cost_nano_usd),
  }));
}

/** Start of the bucket of `step` holding `at` (UTC). */
function stepFloor(step: SeriesQuery['step'], at: Date): Date {
  return floorTo(step === 'minute' ? 60_000 : step === 'hour' ? hourMs : dayMs, at);
}

/**
 * One metric per bucket of the step: from the per-bucket totals (a row per bucket), or summed in
 * SQL over the rollups of the key and model asked for. Latency percentiles come from the summed histograms
 * (see `latencyPercentileMs`). Buckets without calls are left out.
 */
export async function readSeries(db: Kysely<StorageDatabase>, codec: SqlValueCodec, query: SeriesQuery): Promise<SeriesPoint[]> {
  const measured =
    query.metric === 'requests'
      ? [summed('requests').as('m0')]
      : query.metric === 'errors'
        ? [summed('errors').as('m0')]
        : query.metric === 'cost'
          ? [sql<string>`cast(sum(${sql.ref('cost_nano_usd')}) as text)`.as('m0')]
          : latencyBucketColumns.map((column, index) => summed(column).as(`m${index}`));
  let select = db
    .selectFrom(rollupSource(query.keyId === undefined && query.model === undefined))
    .select(['bucket_start', ...measured])
    .where('step', '=', query.step)
    .where('bucket_start', '>=', codec.writeTimestamp(stepFloor(query.step, query.since)))
    .where('bucket_start', '<', codec.writeTimestamp(query.until))
    .groupBy('bucket_start')
    .orderBy('bucket_start');
  if (query.keyId !== undefined) select = select.where('key_scope', '=', query.keyId);
  if (query.model !== undefined) select = select.where('model', '=', query.model);
  const rows = (await select.execute()) as unknown as (Record<string, unknown> & { bucket_start: unknown })[];
  const points: SeriesPoint[] = [];
  for (const row of rows) {
    const at = readDate(row.bucket_start);
    if (query.metric === 'cost') points.push({ at, value: readBigInt(row['m0']) });
    else if (query.metric === 'requests' || query.metric === 'errors') points.push({ at, value: readNumber(row['m0']) });
    else {
      const histogram = latencyBucketColumns.map((_, index) => readNumber(row[`m${index}`]));
      const value = latencyPercentileMs(histogram, query.metric === 'latency_p50' ? 0.5 : 0.95);
      if (value !== undefined) points.push({ at, value });
    }
  }
  return points;
}
