import type { ApiKeyChanges, ApiKeyRecord } from './api-key.js';

export interface ApiKeyStore {
  /** Rejects when the id or the hash already exists. */
  insert(record: ApiKeyRecord): Promise<void>;
  /**
   * The key whose hash, or whose previous hash (after a rotation), is `hash`. Returns revoked and
   * expired keys and stale previous hashes too: the caller decides what they mean.
   */
  findByHash(hash: string): Promise<ApiKeyRecord | undefined>;
  findById(id: string): Promise<ApiKeyRecord | undefined>;
  /** Every key, newest first. */
  list(): Promise<ApiKeyRecord[]>;
  /**
   * True once any key has ever been stored, revoked and expired ones included: open access ends
   * with the first key and never comes back. Asked on every anonymous call while access is open,
   * so adapters answer it with one query that stops at the first row.
   */
  anyExists(): Promise<boolean>;
  /** False when the key is unknown or already revoked (the first revocation time is kept). */
  revoke(id: string, at: Date): Promise<boolean>;
  /** Applies the changes; undefined when the key is unknown. */
  update(id: string, changes: ApiKeyChanges): Promise<ApiKeyRecord | undefined>;
  /**
   * Gives the key a new secret; the current one stays valid until `previousValidUntil`.
   * Undefined when the key is unknown or revoked.
   */
  rotate(id: string, next: { readonly prefix: string; readonly hash: string }, previousValidUntil: Date): Promise<ApiKeyRecord | undefined>;
  /** Records when keys were last used; a time earlier than the one stored is ignored. */
  markUsed(uses: readonly { readonly id: string; readonly at: Date }[]): Promise<void>;
}
