/** Records for the storage contract suite and the adapters' own tests: valid defaults, overridable per case. */
import type { ApiKeyRecord } from '../keys/api-key.js';
import type { LedgerEntry } from '../metering/ledger-entry.js';
import type { StoredResponseRecord } from '../stored-responses/response-store.js';
import { apiKeyRecord } from '../keys/api-key-record.js';

export function at(iso: string): Date {
  return new Date(iso);
}

export function hash(seed: string): string {
  return seed.padEnd(64, '0');
}

export function apiKey(overrides: Partial<ApiKeyRecord> = {}): ApiKeyRecord {
  return apiKeyRecord({
    id: 'key_1',
    name: 'test key',
    prefix: 'sk-sy-abcd',
    hash: hash('abcdef'),
    scopes: { endpoints: null, models: null },
    budgetNanoUsd: null,
    rpm: null,
    createdAt: at('2025-01-15T08:30:00.250Z'),
    ...overrides,
  });
}

/** A complete ledger entry for tests, with the fields a test cares about overridden. */
export function ledgerEntry(overrides: Partial<LedgerEntry> = {}): LedgerEntry {
  return {
    requestId: 'req_1',
    keyId: 'key_1',
    model: 'gpt-4o-mini',
    provider: 'openai',
    upstreamModel: 'gpt-4o-mini-2024-07-18',
    endpoint: 'chat',
    status: 200,
    inputUncached: 10,
    cacheRead: 3,
    cacheWrite: 2,
    output: 20,
    reasoning: 5,
    images: 0,
    videoSeconds: 0,
    usageEstimated: false,
    costNanoUsd: 12_345n,
    createdAt: at('2025-03-01T12:00:00.000Z'),
    durationMs: 842,
    ...overrides,
  };
}

/** No token buckets, as a video job's entry or an image call whose upstream counts no tokens. */
export const mediaOnly = { inputUncached: 0, cacheRead: 0, cacheWrite: 0, output: 0, reasoning: 0 } as const;

export function totalsRow(keyId: string | null, model: string, day: string, requests: number, costNanoUsd: bigint) {
  return {
    keyId,
    model,
    day,
    requests,
    inputTokens: 15 * requests,
    outputTokens: 25 * requests,
    cacheReadTokens: 3 * requests,
    cacheWriteTokens: 2 * requests,
    reasoningTokens: 5 * requests,
    images: 0,
    videoSeconds: 0,
    costNanoUsd,
  };
}

export function storedResponse(overrides: Partial<StoredResponseRecord> = {}): StoredResponseRecord {
  return {
    id: 'resp_1',
    keyId: 'key_1',
    body: '{"id":"resp_1","object":"response","output":[]}',
    createdAt: at('2025-03-01T12:00:00.000Z'),
    expiresAt: null,
    ...overrides,
  };
}
