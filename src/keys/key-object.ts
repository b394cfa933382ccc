import { formatNanoUsd } from '../catalog/pricing/decimal-usd.js';
import { usdOrNull } from './key-settings-wire.js';
import type { ApiKeyRecord } from './api-key.js';
import type { KeySpend } from '../metering/usage-ledger.js';
import type { Storage } from '../storage/ports.js';

export type KeyStatus = 'active' | 'revoked' | 'expired';

export function keyStatus(key: ApiKeyRecord, now: Date): KeyStatus {
  if (key.revokedAt !== null) return 'revoked';
  if (key.expiresAt !== null && key.expiresAt.getTime() <= now.getTime()) return 'expired';
  return 'active';
}

/** A key as the admin API and `keys list --json` show it: everything but its hashes, with its running spend. */
export function adminKeyObject(key: ApiKeyRecord, spend: KeySpend, now: Date): Record<string, unknown> {
  return {
    id: key.id,
    object: 'api_key',
    name: key.name,
    prefix: key.prefix,
    admin: key.admin,
    scopes: { endpoints: key.scopes.endpoints, models: key.scopes.models },
    rpm: key.rpm,
    tpm: key.tpm,
    concurrency: key.concurrency,
    budget_usd: usdOrNull(key.budgetNanoUsd),
    daily_budget_usd: usdOrNull(key.dailyBudgetNanoUsd),
    monthly_budget_usd: usdOrNull(key.monthlyBudgetNanoUsd),
    spend: { total_usd: formatNanoUsd(spend.total), month_usd: formatNanoUsd(spend.month), day_usd: formatNanoUsd(spend.day) },
    created_at: key.createdAt.toISOString(),
    expires_at: key.expiresAt?.toISOString() ?? null,
    revoked_at: key.revokedAt?.toISOString() ?? null,
    last_used_at: key.lastUsedAt?.toISOString() ?? null,
    status: keyStatus(key, now),
  };
}

/** The key object with its spend read from the ledger's running totals. */
export async function describeAdminKey(storage: Storage, key: ApiKeyRecord, now = new Date()): Promise<Record<string, unknown>> {
  return adminKeyObject(key, await storage.ledger.spend(key.id, now), now);
}
