import { sql, type Kysely } from 'kysely';
import type { LedgerEntry } from '../../metering/ledger-entry.js';
import type { KeySpend, LedgerCursor, LedgerExportFilter, SeriesPoint, SeriesQuery, UsageGroup, UsageQuery, LedgerListFilter, LedgerTotals, LedgerTotalsFilter, UsageLedger } from '../../metering/usage-ledger.js';
import type { StorageDatabase } from './database-schema.js';
import { appendLedgerEntries } from './append-ledger-entries.js';
import { spendPeriods } from '../ledger-increments.js';
import type { SqlValueCodec } from './sql-value-codec.js';
import { readBigInt, readDate, readNumber } from './sql-values.js';
import { ledgerEntryFromRow } from '../ledger-row.js';
import { ledgerEntryColumns } from './ledger-entry-columns.js';
import { readSeries, readUsage } from './rollup-reads.js';

/** Entries read per statement by `entries`. */
const entriesPageSize = 1_000;

export class KyselyUsageLedger implements UsageLedger {
  constructor(
    private readonly db: Kysely<StorageDatabase>,
    private readonly codec: SqlValueCodec,
  ) {}

  async append(entry: LedgerEntry): Promise<boolean> {
    return (await this.appendMany([entry])) > 0;
  }

  async appendMany(entries: readonly LedgerEntry[]): Promise<number> {
    if (entries.length === 0) return 0;
    return this.db.transaction().execute((transaction) => appendLedgerEntries(transaction, this.codec, entries));
  }

  async list(filter: LedgerListFilter = {}): Promise<LedgerEntry[]> {
    let query = this.db.selectFrom('usage_ledger').select(ledgerEntryColumns).orderBy('created_at', 'desc').orderBy('request_id', 'desc');
    if (filter.keyId !== undefined) query = query.where('key_id', '=', filter.keyId);
    if (filter.since !== undefined) query = query.where('created_at', '>=', this.codec.writeTimestamp(filter.since));
    if (filter.limit !== undefined) query = query.limit(filter.limit);
    const rows = await query.execute();
    return rows.map((row) => ledgerEntryFromRow(row, this.codec));
  }

  async totals(filter: LedgerTotalsFilter = {}): Promise<LedgerTotals[]> {
    const day = this.codec.utcDay('created_at');
    let query = this.db
      .selectFrom('usage_ledger')
      .select([
        'key_id',
        'model',
        day.as('day'),
        sql<unknown>`count(*)`.as('requests'),
        sql<unknown>`sum(${sql.ref('input_uncached')} + ${sql.ref('cache_read')} + ${sql.ref('cache_write')})`.as('input_tokens'),
        sql<unknown>`sum(${sql.ref('output')} + ${sql.ref('reasoning')})`.as('output_tokens'),
        sql<unknown>`sum(${sql.ref('cache_read')})`.as('cache_read_tokens'),
        sql<unknown>`sum(${sql.ref('cache_write')})`.as('cache_write_tokens'),
        sql<unknown>`sum(${sql.ref('reasoning')})`.as('reasoning_tokens'),
        sql<unknown>`sum(${sql.ref('images')})`.as('images'),
        sql<unknown>`sum(${sql.ref('video_seconds')})`.as('video_seconds'),
        sql<string>`cast(sum(${sql.ref('cost_nano_usd')}) as text)`.as('cost_nano_usd'),
      ])
      .groupBy(['key_id', 'model', day])
      .orderBy(day)
      // NULL sorts first in SQLite and last in PostgreSQL; order it explicitly so both agree.
      .orderBy(sql`${sql.ref('key_id')} is null`)
      .orderBy('key_id')
      .orderBy('model');
    if (filter.keyId !== undefined) query = query.where('key_id', '=', filter.keyId);
    if (filter.since !== undefined) query = query.where('created_at', '>=', this.codec.writeTimestamp(filter.since));
    const rows = await query.execute();
    return rows.map((row) => ({
      keyId: row.key_id,
      model: row.model,
      day: row.day,
      requests: readNumber(row.requests),
      inputTokens: readNumber(row.input_tokens),
      outputTokens: readNumber(row.output_tokens),
      cacheReadTokens: readNumber(row.cache_read_tokens),
      cacheWriteTokens: readNumber(row.cache_write_tokens),
      reasoningTokens: readNumber(row.reasoning_tokens),
      images: readNumber(row.images),
      videoSeconds: readNumber(row.video_seconds),
      costNanoUsd: readBigInt(row.cost_nano_usd),
    }));
  }

  async spentNanoUsd(keyId: string): Promise<bigint> {
    const row = await this.db
      .selectFrom('usage_ledger')
      .select(sql<string>`cast(coalesce(sum(${sql.ref('cost_nano_usd')}), 0) as text)`.as('spent'))
      .where('key_id', '=', keyId)
      .executeTakeFirstOrThrow();
    return readBigInt(row.spent);
  }

  async spend(keyId: string, at: Date): Promise<KeySpend> {
    const periods = spendPeriods(at);
    const rows = await this.db
      .selectFrom('key_spend')
      .select(['period', sql<string>`cast(${sql.ref('cost_nano_usd')} as text)`.as('cost_nano_usd')])
      .where('key_id', '=', keyId)
      .where('period', 'in', [periods.all, periods.month, periods.day])
      .execute();
    const total = (period: string) => readBigInt(rows.find((row) => row.period === period)?.cost_nano_usd ?? '0');
    return { total: total(periods.all), month: total(periods.month), day: total(periods.day) };
  }

  usage(query: UsageQuery): Promise<UsageGroup[]> {
    return readUsage(this.db, this.codec, query);
  }

  series(query: SeriesQuery): Promise<SeriesPoint[]> {
    return readSeries(this.db, this.codec, query);
  }

  /** Keyset paging on the `(created_at, request_id)` index: each page costs the same however deep. */
  async recent(query: { readonly limit: number; readonly before?: LedgerCursor; readonly keyId?: string }): Promise<LedgerEntry[]> {
    let select = this.db
      .selectFrom('usage_ledger')
      .select(ledgerEntryColumns)
      .orderBy('created_at', 'desc')
      .orderBy('request_id', 'desc')
      .limit(query.limit);
    if (query.before !== undefined) select = select.where(this.beyond('<', query.before));
    if (query.keyId !== undefined) select = select.where('key_id', '=', query.keyId);
    const rows = await select.execute();
    return rows.map((row) => ledgerEntryFromRow(row, this.codec));
  }

  /**
   * Pages of `entriesPageSize` in `(created_at, request_id)` order, each starting after the last
   * entry of the one before: memory stays constant however many entries match, and entries
   * appended meanwhile with a later time are included.
   */
  async *entries(filter: LedgerExportFilter): AsyncIterable<LedgerEntry> {
    let after: LedgerCursor | undefined;
    for (;;) {
      let select = this.db
        .selectFrom('usage_ledger')
        .select(ledgerEntryColumns)
        .orderBy('created_at', 'asc')
        .orderBy('request_id', 'asc')
        .limit(entriesPageSize);
      if (after !== undefined) select = select.where(this.beyond('>', after));
      if (filter.since !== undefined) select = select.where('created_at', '>=', this.codec.writeTimestamp(filter.since));
      if (filter.until !== undefined) select = select.where('created_at', '<', this.codec.writeTimestamp(filter.until));
      if (filter.keyId !== undefined) select = select.where('key_id', '=', filter.keyId);
      if (filter.model !== undefined) select = select.where('model', '=', filter.model);
      const rows = await select.execute();
      for (const row of rows) yield ledgerEntryFromRow(row, this.codec);
      const last = rows.at(-1);
      if (last === undefined || rows.length < entriesPageSize) return;
      after = { createdAt: readDate(last.created_at), requestId: last.request_id };
    }
  }

  /** Rows strictly before (`<`) or after (`>`) a cursor in `(created_at, request_id)` order; both dialects compare row values. */
  private beyond(direction: '<' | '>', cursor: LedgerCursor) {
    return sql<boolean>`(${sql.ref('created_at')}, ${sql.ref('request_id')}) ${sql.raw(direction)} (${this.codec.writeTimestamp(cursor.createdAt)}, ${cursor.requestId})`;
  }
}
