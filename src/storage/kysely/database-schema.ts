import type { ColumnType } from 'kysely';

/**
 * Table shapes as Kysely sees them. Columns whose driver representation differs between the
 * dialects (timestamps, booleans, 64-bit integers) are typed loosely here and converted in one
 * place, the dialect's `SqlValueCodec`.
 */

/** A timestamp is ISO text in SQLite and `timestamptz` (read back as Date) in PostgreSQL. */
export type TimestampColumn = ColumnType<Date | string, Date | string, Date | string>;
export type NullableTimestampColumn = ColumnType<Date | string | null, Date | string | null, Date | string | null>;
/** A boolean is 0/1 in SQLite and a real boolean in PostgreSQL. */
export type BooleanColumn = ColumnType<boolean | number, boolean | number, boolean | number>;
/** A 64-bit integer; always read through `cast(... as text)` so no driver turns it into a float. */
export type MoneyColumn = ColumnType<string | number | bigint, bigint, bigint>;
export type NullableMoneyColumn = ColumnType<string | number | bigint | null, bigint | null, bigint | null>;

export interface ApiKeysTable {
  id: string;
  name: string;
  prefix: string;
  hash: string;
  /** JSON array text; SQL NULL means "all endpoints". */
  scope_endpoints: string | null;
  /** JSON array text; SQL NULL means "all models". */
  scope_models: string | null;
  budget_nano_usd: NullableMoneyColumn;
  rpm: number | null;
  created_at: TimestampColumn;
  revoked_at: NullableTimestampColumn;
  expires_at: NullableTimestampColumn;
  is_admin: BooleanColumn;
  tpm: number | null;
  concurrency: number | null;
  daily_budget_nano_usd: NullableMoneyColumn;
  monthly_budget_nano_usd: NullableMoneyColumn;
  last_used_at: NullableTimestampColumn;
  previous_hash: string | null;
  previous_hash_expires_at: NullableTimestampColumn;
}

/** A key's running spend for one period: `all`, `YYYY-MM` or `YYYY-MM-DD` (UTC). */
export interface KeySpendTable {
  key_id: string;
  period: string;
  cost_nano_usd: MoneyColumn;
}

/** A 64-bit count (bigint in PostgreSQL, where pg reads it back as text). */
export type CountColumn = ColumnType<string | number | bigint, number, number>;

/** `usage_rollups` summed over keys and models: one row per step and bucket. */
export type UsageTotalsTable = Omit<UsageRollupsTable, 'key_scope' | 'model'>;

/** Aggregates of the ledger per step (minute, hour, day), bucket, key and model. */
export interface UsageRollupsTable {
  step: string;
  bucket_start: TimestampColumn;
  key_scope: string;
  model: string;
  requests: CountColumn;
  errors: CountColumn;
  input_uncached: CountColumn;
  cache_read: CountColumn;
  cache_write: CountColumn;
  output: CountColumn;
  reasoning: CountColumn;
  images: CountColumn;
  video_seconds: CountColumn;
  duration_ms: CountColumn;
  latency_0: CountColumn;
  latency_1: CountColumn;
  latency_2: CountColumn;
  latency_3: CountColumn;
  latency_4: CountColumn;
  latency_5: CountColumn;
  latency_6: CountColumn;
  latency_7: CountColumn;
  latency_8: CountColumn;
  latency_9: CountColumn;
  latency_10: CountColumn;
  latency_11: CountColumn;
  cost_nano_usd: MoneyColumn;
}

export interface AdminAuditTable {
  id: string;
  at: TimestampColumn;
  actor_key_id: string | null;
  action: string;
  target_id: string | null;
  /** JSON object text. */
  details: string;
}

export interface UsageLedgerTable {
  request_id: string;
  key_id: string | null;
  model: string;
  provider: string;
  upstream_model: string;
  endpoint: string;
  status: number;
  input_uncached: number;
  cache_read: number;
  cache_write: number;
  output: number;
  reasoning: number;
  images: number;
  video_seconds: number;
  usage_estimated: BooleanColumn;
  cost_nano_usd: MoneyColumn;
  created_at: TimestampColumn;
  duration_ms: number;
}

export interface StoredResponsesTable {
  id: string;
  key_id: string | null;
  body: string;
  created_at: TimestampColumn;
  expires_at: NullableTimestampColumn;
}

export interface GatewaySettingsTable {
  name: string;
  value: string;
}

export interface VideoJobsTable {
  id: string;
  key_id: string | null;
  /** The key id, or '' for jobs made without a key: what idempotency and listing go by. */
  key_scope: string;
  idempotency_key: string | null;
  /** Added by 0010: a digest of the submitted request, so a reused idempotency key is recognised. */
  request_hash: string | null;
  model: string;
  provider: string;
  upstream_model: string;
  upstream_job_id: string | null;
  prompt: string;
  mode: string;
  resolution: string;
  aspect_ratio: string;
  size: string;
  seconds: number;
  remixed_from_video_id: string | null;
  price_per_second_pico_usd: MoneyColumn;
  status: string;
  progress: number;
  error_code: string | null;
  error_message: string | null;
  created_at: TimestampColumn;
  completed_at: NullableTimestampColumn;
  expires_at: NullableTimestampColumn;
  deadline_at: TimestampColumn;
  next_poll_at: TimestampColumn;
  poll_attempts: number;
  lease_owner: string | null;
  lease_expires_at: NullableTimestampColumn;
  delivered_seconds: number | null;
  cost_nano_usd: NullableMoneyColumn;
  /** JSON object text: variant → content key. */
  contents: string;
  deleted_at: NullableTimestampColumn;
}

export interface StorageDatabase {
  api_keys: ApiKeysTable;
  usage_ledger: UsageLedgerTable;
  stored_responses: StoredResponsesTable;
  gateway_settings: GatewaySettingsTable;
  video_jobs: VideoJobsTable;
  key_spend: KeySpendTable;
  usage_rollups: UsageRollupsTable;
  usage_totals: UsageTotalsTable;
  admin_audit: AdminAuditTable;
}
