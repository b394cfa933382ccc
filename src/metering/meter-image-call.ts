import type { CatalogModel, CatalogRoute } from '../catalog/model-catalog.js';
import type { Usage } from '../ir/usage.js';
import type { ApiKeyRecord } from '../keys/api-key.js';
import type { LedgerEntry } from './ledger-entry.js';
import type { LedgerWriter } from './ledger-writer.js';

export interface ImageCallRecord {
  readonly requestId: string;
  readonly key: ApiKeyRecord | undefined;
  readonly model: CatalogModel;
  /** The route that answered; undefined when none did. */
  readonly route: CatalogRoute | undefined;
  readonly status: number;
  readonly images: number;
  readonly usage: Usage | undefined;
  readonly costNanoUsd: bigint;
  readonly startedAt: number;
}

/**
 * One ledger entry per image call that passed authentication and validation: the images returned
 * and their cost, or a failure at 0. Token buckets hold what the upstream reported (0 when it
 * reports none: images are billed per image, so no token figure is estimated).
 */
export function meterImageCall(ledger: LedgerWriter, record: ImageCallRecord): LedgerEntry {
  const usage = record.usage;
  const entry: LedgerEntry = {
    requestId: record.requestId,
    keyId: record.key?.id ?? null,
    model: record.model.id,
    provider: record.route?.target.providerName ?? '',
    upstreamModel: record.route?.target.model ?? '',
    endpoint: 'images',
    status: record.status,
    inputUncached: usage?.inputUncached ?? 0,
    cacheRead: usage?.cacheRead ?? 0,
    cacheWrite: usage?.cacheWrite ?? 0,
    output: usage?.output ?? 0,
    reasoning: usage?.reasoning ?? 0,
    images: record.images,
    videoSeconds: 0,
    usageEstimated: false,
    costNanoUsd: record.costNanoUsd,
    createdAt: new Date(record.startedAt),
    durationMs: Date.now() - record.startedAt,
  };
  ledger.record(entry);
  return entry;
}
