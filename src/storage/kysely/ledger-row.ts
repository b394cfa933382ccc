import type { LedgerEntry } from '../../metering/ledger-entry.js';
import type { SqlValueCodec } from './sql-value-codec.js';

/** A ledger entry as a `usage_ledger` row, for every writer of the table. */
export function ledgerRow(entry: LedgerEntry, codec: SqlValueCodec) {
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
