import type BetterSqlite3 from 'better-sqlite3';
import type { ApiKeyStore } from '../../keys/api-key-store.js';
import type { ApiKeyChanges, ApiKeyRecord } from '../../keys/api-key.js';

/** The key store's other operations, answered elsewhere (by the Kysely key store). */
export type ApiKeyOperations = Omit<ApiKeyStore, 'anyExists'>;

const anyKeyStatement = 'SELECT 1 FROM api_keys LIMIT 1';

/**
 * The SQLite key store. `anyExists` is asked on every anonymous call while open access holds, so
 * it runs on a statement prepared once, and a fresh gateway serving keyless calls never loads
 * Kysely. Everything else goes through the Kysely store (`operations`) on the same connection.
 */
export class SqliteApiKeyStore implements ApiKeyStore {
  private anyKey: BetterSqlite3.Statement<[]> | undefined;

  constructor(
    private readonly database: BetterSqlite3.Database,
    private readonly operations: ApiKeyOperations,
  ) {}

  async anyExists(): Promise<boolean> {
    return this.preparedAnyKey().get() !== undefined;
  }

  insert(record: ApiKeyRecord): Promise<void> {
    return this.operations.insert(record);
  }

  findByHash(hash: string): Promise<ApiKeyRecord | undefined> {
    return this.operations.findByHash(hash);
  }

  findById(id: string): Promise<ApiKeyRecord | undefined> {
    return this.operations.findById(id);
  }

  list(): Promise<ApiKeyRecord[]> {
    return this.operations.list();
  }

  revoke(id: string, at: Date): Promise<boolean> {
    return this.operations.revoke(id, at);
  }

  update(id: string, changes: ApiKeyChanges): Promise<ApiKeyRecord | undefined> {
    return this.operations.update(id, changes);
  }

  rotate(id: string, next: { readonly prefix: string; readonly hash: string }, previousValidUntil: Date): Promise<ApiKeyRecord | undefined> {
    return this.operations.rotate(id, next, previousValidUntil);
  }

  markUsed(uses: readonly { readonly id: string; readonly at: Date }[]): Promise<void> {
    return this.operations.markUsed(uses);
  }

  /** Prepared on first use: the table exists only once `migrate()` has run; a failed prepare is retried. */
  private preparedAnyKey(): BetterSqlite3.Statement<[]> {
    this.anyKey ??= this.database.prepare<[]>(anyKeyStatement);
    return this.anyKey;
  }
}
