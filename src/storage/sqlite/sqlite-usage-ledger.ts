import type BetterSqlite3 from 'better-sqlite3';
import { ledgerIncrements, spendPeriods, summedColumns, type TotalIncrement } from '../ledger-increments.js';
import type { LedgerEntry } from '../../metering/ledger-entry.js';
import type { KeySpend, LedgerCursor, LedgerExportFilter, SeriesPoint, SeriesQuery, UsageGroup, UsageQuery, LedgerListFilter, LedgerTotals, LedgerTotalsFilter, UsageLedger } from '../../metering/usage-ledger.js';
import { ledgerColumns, ledgerRowValues, type LedgerRowCodec, type LedgerRowValues } from '../ledger-row.js';
import { readSqliteBoolean, writeSqliteBoolean, writeSqliteTimestamp } from './sqlite-values.js';

/** The ledger's queries, answered elsewhere (by the Kysely ledger). */
export type LedgerReads = Pick<UsageLedger, 'list' | 'totals' | 'spentNanoUsd' | 'usage' | 'series' | 'recent' | 'entries'>;

const spendStatement =
  'INSERT INTO key_spend (key_id, period, cost_nano_usd) VALUES (?, ?, ?) ' +
  'ON CONFLICT(key_id, period) DO UPDATE SET cost_nano_usd = cost_nano_usd + excluded.cost_nano_usd';

const summedRollupColumns = [...summedColumns, 'cost_nano_usd'];
const rollupStatement =
  `INSERT INTO usage_rollups (step, bucket_start, key_scope, model, ${summedRollupColumns.join(', ')}) ` +
  `VALUES (?, ?, ?, ?, ${summedRollupColumns.map(() => '?').join(', ')}) ` +
  `ON CONFLICT(step, bucket_start, key_scope, model) DO UPDATE SET ${summedRollupColumns.map((column) => `${column} = ${column} + excluded.${column}`).join(', ')}`;

const totalStatement =
  `INSERT INTO usage_totals (step, bucket_start, ${summedRollupColumns.join(', ')}) ` +
  `VALUES (?, ?, ${summedRollupColumns.map(() => '?').join(', ')}) ` +
  `ON CONFLICT(step, bucket_start) DO UPDATE SET ${summedRollupColumns.map((column) => `${column} = ${column} + excluded.${column}`).join(', ')}`;

const readSpendStatement = 'SELECT period, cast(cost_nano_usd as text) AS cost FROM key_spend WHERE key_id = ? AND period IN (?, ?, ?)';

/**
 * Bound from `ledgerRowValues`, the one mapping of an entry to a row, by position: its values come
 * in the order of `ledgerColumns`. (Binding by name costs about a fifth more a row in better-sqlite3.)
 */
const insertStatement =
  `INSERT INTO usage_ledger (${ledgerColumns.join(', ')}) VALUES (${ledgerColumns.map(() => '?').join(', ')}) ON CONFLICT(request_id) DO NOTHING`;

/** SQLite's way with the values it cannot bind, without Kysely's codec. */
const sqliteRowValues: LedgerRowCodec = { writeTimestamp: writeSqliteTimestamp, writeBoolean: writeSqliteBoolean, readBoolean: readSqliteBoolean };

/**
 * The SQLite ledger. Appends are the gateway's hot write path: building a multi-row INSERT with
 * Kysely and preparing it afresh for every batch cost several per cent of the gateway's CPU under
 * load. Here one single-row statement is prepared once and run per row inside one transaction:
 * no SQL is built or compiled per batch, and a batch costs about half the CPU it did. The row is
 * the one every writer of the table binds (storage/ledger-row.ts).
 * Reads are rare and go through the Kysely ledger (`reads`); both paths share one connection and
 * the encoding of sqlite-values.ts, and this file never loads Kysely.
 */
export class SqliteUsageLedger implements UsageLedger {
  private insertRows: ((entries: readonly LedgerEntry[]) => number) | undefined;

  constructor(
    private readonly database: BetterSqlite3.Database,
    private readonly reads: LedgerReads,
  ) {}

  async append(entry: LedgerEntry): Promise<boolean> {
    return (await this.appendMany([entry])) > 0;
  }

  async appendMany(entries: readonly LedgerEntry[]): Promise<number> {
    if (entries.length === 0) return 0;
    return this.preparedInsert()(entries);
  }

  list(filter?: LedgerListFilter): Promise<LedgerEntry[]> {
    return this.reads.list(filter);
  }

  totals(filter?: LedgerTotalsFilter): Promise<LedgerTotals[]> {
    return this.reads.totals(filter);
  }

  spentNanoUsd(keyId: string): Promise<bigint> {
    return this.reads.spentNanoUsd(keyId);
  }

  private readSpend: BetterSqlite3.Statement<[string, string, string, string], { period: string; cost: string }> | undefined;

  /** Budget checks read this when a key is first seen: a prepared statement, no Kysely. */
  async spend(keyId: string, at: Date): Promise<KeySpend> {
    const periods = spendPeriods(at);
    this.readSpend ??= this.database.prepare(readSpendStatement);
    const rows = this.readSpend.all(keyId, periods.all, periods.month, periods.day);
    const total = (period: string) => BigInt(rows.find((row) => row.period === period)?.cost ?? '0');
    return { total: total(periods.all), month: total(periods.month), day: total(periods.day) };
  }

  usage(query: UsageQuery): Promise<UsageGroup[]> {
    return this.reads.usage(query);
  }

  series(query: SeriesQuery): Promise<SeriesPoint[]> {
    return this.reads.series(query);
  }

  recent(query: { readonly limit: number; readonly before?: LedgerCursor; readonly keyId?: string }): Promise<LedgerEntry[]> {
    return this.reads.recent(query);
  }

  entries(filter: LedgerExportFilter): AsyncIterable<LedgerEntry> {
    return this.reads.entries(filter);
  }

  /**
   * Prepared on first use because the table exists only once `migrate()` has run. A failed
   * prepare (e.g. not migrated yet) is not cached, so the next append tries again.
   */
  private preparedInsert(): (entries: readonly LedgerEntry[]) => number {
    if (this.insertRows !== undefined) return this.insertRows;
    const statement = this.database.prepare<[LedgerRowValues]>(insertStatement);
    const addSpend = this.database.prepare<[string, string, bigint]>(spendStatement);
    const addRollup = this.database.prepare<[unknown[]]>(rollupStatement);
    const addTotal = this.database.prepare<[unknown[]]>(totalStatement);
    // IMMEDIATE takes the write lock up front, so another process's writer makes this wait
    // (busy_timeout) instead of failing half-way; ON CONFLICT DO NOTHING keeps the first entry
    // for a request id, whether the repeat is already stored or earlier in the same batch. The
    // running totals and rollups of the new entries land in the same transaction.
    const transaction = this.database.transaction((batch: readonly LedgerEntry[]): number => {
      let added: LedgerEntry[] | undefined;
      for (let index = 0; index < batch.length; index++) {
        const entry = batch[index]!;
        const inserted = statement.run(ledgerRowValues(entry, sqliteRowValues)).changes > 0;
        // Nearly every batch is all new: the batch itself is summed unless a repeat was skipped.
        if (added === undefined && !inserted) added = batch.slice(0, index);
        else if (added !== undefined && inserted) added.push(entry);
      }
      const newEntries = added ?? batch;
      const increments = ledgerIncrements(newEntries);
      for (const spend of increments.spend) addSpend.run(spend.keyId, spend.period, spend.costNanoUsd);
      for (const rollup of increments.rollups) addRollup.run([rollup.step, writeSqliteTimestamp(rollup.bucketStart), rollup.keyScope, rollup.model, ...summedValues(rollup)]);
      for (const total of increments.totals) addTotal.run([total.step, writeSqliteTimestamp(total.bucketStart), ...summedValues(total)]);
      return newEntries.length;
    });
    this.insertRows = (entries) => transaction.immediate(entries);
    return this.insertRows;
  }
}

/** An increment's values for the summed columns, in the order of `summedRollupColumns`. */
function summedValues(increment: TotalIncrement): unknown[] {
  return [...increment.sums, increment.costNanoUsd];
}
