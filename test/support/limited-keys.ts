import { apiKeyRecord } from '../../src/keys/api-key-record.js';
import { displayPrefix, hashApiKey, mintApiKeySecret, mintKeyId } from '../../src/keys/api-key-secret.js';
import type { ApiKeyRecord } from '../../src/keys/api-key.js';
import type { Storage } from '../../src/storage/ports.js';

/** Stores a new key with the given limits and budgets; answers its secret and id. */
export async function insertLimitedKey(
  storage: Storage,
  settings: Partial<Pick<ApiKeyRecord, 'rpm' | 'tpm' | 'concurrency' | 'budgetNanoUsd' | 'dailyBudgetNanoUsd' | 'monthlyBudgetNanoUsd' | 'admin'>>,
): Promise<{ secret: string; id: string }> {
  const secret = mintApiKeySecret();
  const id = mintKeyId();
  await storage.keys.insert(apiKeyRecord({ id, name: 'limited', prefix: displayPrefix(secret), hash: hashApiKey(secret), createdAt: new Date(), ...settings }));
  return { secret, id };
}

/**
 * Waits, when the wall-clock minute is about to turn, for the next one: per-minute windows are
 * aligned to the minute, and a test that counts calls in one window must not straddle two.
 */
export async function startOfAFreshMinute(neededSeconds = 15): Promise<void> {
  const intoMinute = Date.now() % 60_000;
  if (intoMinute < 60_000 - neededSeconds * 1000) return;
  await new Promise((resolve) => setTimeout(resolve, 60_000 - intoMinute + 50));
}
