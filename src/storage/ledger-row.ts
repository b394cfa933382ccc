import type { LedgerEntry } from '../metering/ledger-entry.js';
import type { SqlValueCodec } from './kysely/sql-value-codec.js';
import { readBigInt, readDate, readNumber } from './kysely/sql-values.js';

/**
 * How a value each dialect stores its own way is written and read. The SQLite appender passes the
 * plain functions of sqlite-values.ts so that it never loads Kysely; the Kysely stores pass their codec.
 */
export type LedgerRowCodec = Pick<SqlValueCodec, 'writeTimestamp' | 'writeBoolean' | 'readBoolean'>;

/** Every column of `usage_ledger`, in the order of `ledgerRowValues`. */
export const ledgerColumns = [
  'request_id', 'key_id', 'model', 'provider', 'upstream_model', 'endpoint', 'status', 'input_uncached', 'cache_read', 'cache_write',
  'output', 'reasoning', 'images', 'video_seconds', 'usage_estimated', 'cost_nano_usd', 'created_at', 'duration_ms',
] as const;

export type LedgerColumn = (typeof ledgerColumns)[number];

/** A `usage_ledger` row's values, one per column of `ledgerColumns`, in its order. */
export type LedgerRowValues = [
  request_id: string,
  key_id: string | null,
  model: string,
  provider: string,
  upstream_model: string,
  endpoint: string,
  status: number,
  input_uncached: number,
  cache_read: number,
  cache_write: number,
  output: number,
  reasoning: number,
  images: number,
  video_seconds: number,
  usage_estimated: ReturnType<LedgerRowCodec['writeBoolean']>,
  cost_nano_usd: bigint,
  created_at: ReturnType<LedgerRowCodec['writeTimestamp']>,
  duration_ms: number,
];

/**
 * A ledger entry as a `usage_ledger` row: the one mapping of an entry to the table, for every writer
 * of it (the SQLite appender, and the Kysely appender PostgreSQL and video job endings use). Values
 * in column order, bound by position: every call the gateway answers is appended, and no object is
 * built only to be taken apart again.
 */
export function ledgerRowValues(entry: LedgerEntry, codec: LedgerRowCodec): LedgerRowValues {
  return [
    entry.requestId,
    entry.keyId,
    entry.model,
    entry.provider,
    entry.upstreamModel,
    entry.endpoint,
    entry.status,
    entry.inputUncached,
    entry.cacheRead,
    entry.cacheWrite,
    entry.output,
    entry.reasoning,
    entry.images,
    entry.videoSeconds,
    codec.writeBoolean(entry.usageEstimated),
    entry.costNanoUsd,
    codec.writeTimestamp(entry.createdAt),
    entry.durationMs,
  ];
}

/** A `usage_ledger` row as the drivers hand it back: numbers may come as strings or bigints, money as text. */
export type LedgerEntryRow = { readonly [Column in LedgerColumn]: Column extends 'request_id' | 'model' | 'provider' | 'upstream_model' | 'endpoint' | 'cost_nano_usd' ? string : Column extends 'key_id' ? string | null : unknown };

/** The entry a `usage_ledger` row holds: the inverse of `ledgerRowValues`, whichever driver read it. */
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
