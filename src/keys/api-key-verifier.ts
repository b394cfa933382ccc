import type { ApiKeyStore } from './api-key-store.js';
import type { ApiKeyRecord } from './api-key.js';
import { apiKeyPrefix, hashApiKey } from './api-key-secret.js';

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
  verify(secret: string): Promise<ApiKeyRecord | undefined> {
    if (!secret.startsWith(apiKeyPrefix)) return Promise.resolve(undefined);
    const hash = hashApiKey(secret);
    const now = this.now();
    // A cached lookup answers without an await: most calls present a key seen seconds ago.
    const cached = this.cache.get(hash);
    if (cached !== undefined && cached.until > now) return Promise.resolve(this.activeRecord(cached.record, hash, now));
    return this.lookup(hash, now).then((record) => this.activeRecord(record, hash, this.now()));
  }

  /** Forgets cached lookups, e.g. after this process revoked a key. */
  invalidate(): void {
    this.cache.clear();
  }

  /**
   * The record found for `hash`, if it is active and `hash` is its current digest or its previous
   * one still in grace. The digests are compared as strings, not in constant time: the record was
   * found by this very digest (the store's index, the cache's map already compared it in variable
   * time), and what a timing difference could reveal is how much of a SHA-256 digest of a 256-bit
   * random secret matches, which gives no way to find a secret that hashes to it.
   */
  private activeRecord(record: ApiKeyRecord | undefined, hash: string, now: number): ApiKeyRecord | undefined {
    if (record === undefined) return undefined;
    if (record.hash !== hash && !this.isPreviousInGrace(record, hash, now)) return undefined;
    if (record.revokedAt !== null) return undefined;
    if (record.expiresAt !== null && record.expiresAt.getTime() <= now) return undefined;
    return record;
  }

  private isPreviousInGrace(record: ApiKeyRecord, hash: string, now: number): boolean {
    if (record.previousHash === null || record.previousHashExpiresAt === null) return false;
    return record.previousHashExpiresAt.getTime() > now && record.previousHash === hash;
  }

  private async lookup(hash: string, now: number): Promise<ApiKeyRecord | undefined> {
    const record = await this.store.findByHash(hash);
    if (this.cache.size >= maximumCachedKeys) this.cache.clear();
    this.cache.set(hash, { record, until: now + this.cacheTtlMs });
    return record;
  }
}
