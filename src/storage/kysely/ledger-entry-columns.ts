import { sql } from 'kysely';
import type { LedgerEntry } from '../../metering/ledger-entry.js';
import type { SqlValueCodec } from './sql-value-codec.js';
import { readBigInt, readDate, readNumber } from './sql-values.js';

/** The `usage_ledger` columns a `LedgerEntry` is read from, for every query that returns entries. */
export const ledgerEntryColumns = [
  'request_id',
  'key_id',
  'model',
  'provider',
  'upstream_model',
  'endpoint',
  'status',
  'input_uncached',
  'cache_read',
  'cache_write',
  'output',
  'reasoning',
  'images',
  'video_seconds',
  'usage_estimated',
  // Read as text: better-sqlite3 would otherwise return a float for values above 2^53.
  sql<string>`cast(${sql.ref('cost_nano_usd')} as text)`.as('cost_nano_usd'),
  'created_at',
  'duration_ms',
] as const;

/** A row selected with `ledgerEntryColumns`, as the drivers hand it back. */
export interface LedgerEntryRow {
  request_id: string;
  key_id: string | null;
  model: string;
  provider: string;
  upstream_model: string;
  endpoint: string;
  status: unknown;
  input_uncached: unknown;
  cache_read: unknown;
  cache_write: unknown;
  output: unknown;
  reasoning: unknown;
  images: unknown;
  video_seconds: unknown;
  usage_estimated: unknown;
  cost_nano_usd: string;
  created_at: unknown;
  duration_ms: unknown;
}

export function ledgerEntryFromRow(row: LedgerEntryRow, codec: SqlValueCodec): LedgerEntry {
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
