import type { ApiKeyRecord } from './api-key.js';

type RequiredKeyFields = 'id' | 'name' | 'prefix' | 'hash' | 'createdAt';

/** A key record with every optional setting at its default: no limits, no budgets, all scopes, not admin. */
export function apiKeyRecord(fields: Pick<ApiKeyRecord, RequiredKeyFields> & Partial<Omit<ApiKeyRecord, RequiredKeyFields>>): ApiKeyRecord {
  return {
    scopes: { endpoints: null, models: null },
    admin: false,
    budgetNanoUsd: null,
    dailyBudgetNanoUsd: null,
    monthlyBudgetNanoUsd: null,
    rpm: null,
    tpm: null,
    concurrency: null,
    revokedAt: null,
    expiresAt: null,
    lastUsedAt: null,
    previousHash: null,
    previousHashExpiresAt: null,
    ...fields,
  };
}
