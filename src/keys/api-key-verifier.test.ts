import { describe, expect, it } from 'vitest';
import type { ApiKeyStore } from './api-key-store.js';
import type { ApiKeyRecord } from './api-key.js';
import { apiKeyRecord } from './api-key-record.js';
import { hashApiKey, mintApiKeySecret } from './api-key-secret.js';
import { ApiKeyVerifier } from './api-key-verifier.js';

/** A store of one key, counting lookups. */
function storeOf(initial: ApiKeyRecord): { store: ApiKeyStore; set(record: ApiKeyRecord): void; lookups(): number } {
  let record = initial;
  let lookups = 0;
  const store = {
    async findByHash(hash: string) {
      lookups += 1;
      return record.hash === hash || record.previousHash === hash ? record : undefined;
    },
  } as Pick<ApiKeyStore, 'findByHash'> as ApiKeyStore;
  return { store, set: (next) => (record = next), lookups: () => lookups };
}

describe('ApiKeyVerifier', () => {
  const oldSecret = mintApiKeySecret();
  const newSecret = mintApiKeySecret();
  const base = apiKeyRecord({ id: 'key_1', name: 'k', prefix: 'sy-x', hash: hashApiKey(oldSecret), createdAt: new Date(0) });
  const rotated = (until: number): ApiKeyRecord => ({ ...base, hash: hashApiKey(newSecret), previousHash: hashApiKey(oldSecret), previousHashExpiresAt: new Date(until) });

  it('accepts a rotated key\'s previous secret until its grace period ends, and the new one throughout', async () => {
    let now = 1_000;
    const { store } = storeOf(rotated(5_000));
    const verifier = new ApiKeyVerifier(store, 5_000, () => now);
    expect((await verifier.verify(oldSecret))?.id).toBe('key_1');
    expect((await verifier.verify(newSecret))?.id).toBe('key_1');
    now = 5_000;
    // Judged at every call, cached record or not.
    expect(await verifier.verify(oldSecret)).toBeUndefined();
    expect((await verifier.verify(newSecret))?.id).toBe('key_1');
  });

  it('refuses a previous secret whose grace period was zero', async () => {
    const { store } = storeOf(rotated(1_000));
    expect(await new ApiKeyVerifier(store, 5_000, () => 1_000).verify(oldSecret)).toBeUndefined();
  });

  it('refuses a revoked key by either secret', async () => {
    const { store } = storeOf({ ...rotated(9_000), revokedAt: new Date(500) });
    const verifier = new ApiKeyVerifier(store, 5_000, () => 1_000);
    expect(await verifier.verify(oldSecret)).toBeUndefined();
    expect(await verifier.verify(newSecret)).toBeUndefined();
  });

  it('sees a change made elsewhere once the cache entry ages out, and at once after invalidate', async () => {
    let now = 0;
    const holder = storeOf(base);
    const verifier = new ApiKeyVerifier(holder.store, 5_000, () => now);
    expect(await verifier.verify(oldSecret)).toBeDefined();
    holder.set({ ...base, revokedAt: new Date(1) });
    now = 4_999;
    expect(await verifier.verify(oldSecret)).toBeDefined();
    expect(holder.lookups()).toBe(1);
    now = 5_000;
    expect(await verifier.verify(oldSecret)).toBeUndefined();
    holder.set(base);
    verifier.invalidate();
    expect(await verifier.verify(oldSecret)).toBeDefined();
  });
});
