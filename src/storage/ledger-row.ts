import type { LedgerEntry } from '../metering/ledger-entry.js';
import type { SqlValueCodec } from './kysely/sql-value-codec.js';
import { readBigInt, readDate, readNumber } from './kysely/sql-values.js';

/**
 * How a value each dialect stores its own way is written and read. The SQLite appender passes the
 * plain functions of sqlite-values.ts so that it never loads Kysely; the Kysely stores pass their codec.
 */
export type LedgerRowCodec = Pick<SqlValueCodec, 'writeTimestamp' | 'writeBoolean' | 'readBoolean'>;

/**
 * A ledger entry as a `usage_ledger` row: the one mapping of an entry to the table, for every writer
 * of it (the SQLite appender, the Kysely appender PostgreSQL and video job endings use). Its keys
 * are the table's columns, in the order `ledgerColumns` lists them.
 */
export function ledgerRow(entry: LedgerEntry, codec: LedgerRowCodec) {
  return {
    request_id: entry.requestId,
    key_id: entry.keyId,
    model: entry.model,
    provider: entry.provider,
    upstream_model: entry.upstreamModel,
    endpoint: entry.endpoint,
    status: entry.status,
    input_uncached: entry.inputUncached,
    cache_read: entry.cacheRead,
    cache_write: entry.cacheWrite,
    output: entry.output,
    reasoning: entry.reasoning,
    images: entry.images,
    video_seconds: entry.videoSeconds,
    usage_estimated: codec.writeBoolean(entry.usageEstimated),
    cost_nano_usd: entry.costNanoUsd,
    created_at: codec.writeTimestamp(entry.createdAt),
    duration_ms: entry.durationMs,
  };
}

export type LedgerRow = ReturnType<typeof ledgerRow>;

/** Every column of `usage_ledger`, in the order of `ledgerRow`. */
export const ledgerColumns = Object.keys(
  ledgerRow(
    {
      requestId: '', keyId: null, model: '', provider: '', upstreamModel: '', endpoint: '', status: 0, inputUncached: 0, cacheRead: 0,
      cacheWrite: 0, output: 0, reasoning: 0, images: 0, videoSeconds: 0, usageEstimated: false, costNanoUsd: 0n, createdAt: new Date(0), durationMs: 0,
    },
    { writeTimestamp: (value) => value, writeBoolean: (value) => value, readBoolean: () => false },
  ),
) as (keyof LedgerRow)[];

/** A `usage_ledger` row as the drivers hand it back: numbers may come as strings or bigints, money as text. */
export type LedgerEntryRow = { readonly [Column in keyof LedgerRow]: Column extends 'request_id' | 'model' | 'provider' | 'upstream_model' | 'endpoint' | 'cost_nano_usd' ? string : Column extends 'key_id' ? string | null : unknown };

/** The entry a `usage_ledger` row holds: the inverse of `ledgerRow`, whichever driver read it. */
export function ledgerEntryFromRow(row: LedgerEntryRow, codec: LedgerRowCodec): LedgerEntry {
  return {
    requestId: row.request_id,
    keyId: row.key_id,
    model: row.model,
    provider: row.provider,
    upstreamModel: row.upstream_model,
    endpoint: row.endpoint,
    status: readNumber(row.status),
    inputUncached: readNumber(row.input_uncached),
    cacheRead: readNumber(row.cache_read),
    cacheWrite: readNumber(row.cache_write),
    output: readNumber(row.output),
    reasoning: readNumber(row.reasoning),
    images: readNumber(row.images),
    videoSeconds: readNumber(row.video_seconds),
    usageEstimated: codec.readBoolean(row.usage_estimated),
    costNanoUsd: readBigInt(row.cost_nano_usd),
    createdAt: readDate(row.created_at),
    durationMs: readNumber(row.duration_ms),
  };
}
