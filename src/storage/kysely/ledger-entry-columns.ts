import { sql } from 'kysely';

/**
 * The `usage_ledger` columns a `LedgerEntry` is read from, for every query that returns entries;
 * `ledgerEntryFromRow` (storage/ledger-row.ts) takes the rows, and fails to compile if one is left out.
 */
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

