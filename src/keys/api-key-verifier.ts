import type { ApiKeyRecord, ApiKeyStore } from '../storage/ports.js';
import { apiKeyPrefix, digestsEqual, hashApiKey } from './api-key-secret.js';

interface CacheEntry {
  readonly record: ApiKeyRecord | undefined;
  readonly until: number;
}

const maximumCachedKeys = 10_000;

/**
 * Looks up presented keys by digest, with a short-lived cache so authentication costs no database
 * round trip on the hot path. A revocation made by another process takes effect within `cacheTtlMs`.
 */
export class ApiKeyVerifier {
  private readonly cache = new Map<string, CacheEntry>();

  constructor(
    private readonly store: ApiKeyStore,
    private readonly cacheTtlMs = 5_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** The active key record for a presented secret, or undefined when unknown, revoked or expired. */
  async verify(secret: string): Promise<ApiKeyRecord | undefined> {
    if (!secret.startsWith(apiKeyPrefix)) return undefined;
    const hash = hashApiKey(secret);
    const record = await this.lookup(hash);
    if (record === undefined || !digestsEqual(record.hash, hash)) return undefined;
    if (record.revokedAt !== null) return undefined;
    if (record.expiresAt !== null && record.expiresAt.getTime() <= this.now()) return undefined;
    return record;
  }

  /** Forgets cached lookups, e.g. after this process revoked a key. */
  invalidate(): void {
    this.cache.clear();
  }

  private async lookup(hash: string): Promise<ApiKeyRecord | undefined> {
    const now = this.now();
    const cached = this.cache.get(hash);
    if (cached !== undefined && cached.until > now) return cached.record;
    const record = await this.store.findByHash(hash);
    if (this.cache.size >= maximumCachedKeys) this.cache.clear();
    this.cache.set(hash, { record, until: now + this.cacheTtlMs });
    return record;
  }
}
