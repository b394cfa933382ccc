import type { ApiKeyStore } from './api-key-store.js';
import type { ApiKeyRecord } from './api-key.js';
import { apiKeyPrefix, digestsEqual, hashApiKey } from './api-key-secret.js';

interface CacheEntry {
  readonly record: ApiKeyRecord | undefined;
  readonly until: number;
}

const maximumCachedKeys = 10_000;

/**
 * Looks up presented keys by digest, with a short-lived cache so authentication costs no database
 * round trip on the hot path. A change made by another process (a revocation, new scopes or
 * limits, a rotation) takes effect within `cacheTtlMs`, at most 5 seconds (docs/api.md,
 * "Authentication"); a change made in this process takes effect at once through `invalidate`.
 */
export class ApiKeyVerifier {
  private readonly cache = new Map<string, CacheEntry>();

  constructor(
    private readonly store: ApiKeyStore,
    private readonly cacheTtlMs = 5_000,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The active key record for a presented secret, or undefined when unknown, revoked or expired.
   * After a rotation the previous secret is accepted until its grace period ends.
   */
  async verify(secret: string): Promise<ApiKeyRecord | undefined> {
    if (!secret.startsWith(apiKeyPrefix)) return undefined;
    const hash = hashApiKey(secret);
    const record = await this.lookup(hash);
    if (record === undefined) return undefined;
    const now = this.now();
    if (!digestsEqual(record.hash, hash) && !this.isPreviousInGrace(record, hash, now)) return undefined;
    if (record.revokedAt !== null) return undefined;
    if (record.expiresAt !== null && record.expiresAt.getTime() <= now) return undefined;
    return record;
  }

  /** Forgets cached lookups, e.g. after this process revoked a key. */
  invalidate(): void {
    this.cache.clear();
  }

  private isPreviousInGrace(record: ApiKeyRecord, hash: string, now: number): boolean {
    if (record.previousHash === null || record.previousHashExpiresAt === null) return false;
    return record.previousHashExpiresAt.getTime() > now && digestsEqual(record.previousHash, hash);
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
