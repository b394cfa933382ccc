export interface StoredResponseRecord {
  readonly id: string;
  readonly keyId: string | null;
  /** The response as JSON text, exactly as it will be served back. */
  readonly body: string;
  readonly createdAt: Date;
  readonly expiresAt: Date | null;
}

export interface ResponseStore {
  /**
   * Stores the record unless one with its id is already stored; resolves false when one was (it
   * is kept as it was). A stored response is never replaced by another.
   */
  putIfAbsent(record: StoredResponseRecord): Promise<boolean>;
  /** Undefined when unknown or expired at `now`. */
  get(id: string, now?: Date): Promise<StoredResponseRecord | undefined>;
  /** False when there was nothing to delete. */
  delete(id: string): Promise<boolean>;
}
