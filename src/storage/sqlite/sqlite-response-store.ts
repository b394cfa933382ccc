import type BetterSqlite3 from 'better-sqlite3';
import type { ResponseStore, StoredResponseRecord } from '../../stored-responses/response-store.js';
import { writeSqliteTimestamp } from './sqlite-values.js';

/** The response store's other operations, answered elsewhere (by the Kysely response store). */
export type ResponseReads = Pick<ResponseStore, 'get' | 'delete'>;

/**
 * The same insert the Kysely store runs: a new id is inserted, an existing one is left as it was.
 * Same columns, same order as the `?` placeholders bound in `putIfAbsent`.
 */
const insertStatement = 'INSERT INTO stored_responses (id, key_id, body, created_at, expires_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT(id) DO NOTHING';

type InsertParameters = [string, string | null, string, string, string | null];

/**
 * The SQLite response store. Every streamed Responses answer that is stored ends with a `putIfAbsent`;
 * through Kysely each one compiled the query and had better-sqlite3 prepare it afresh, a few per
 * cent of the gateway's CPU under load. Here the statement is prepared once and run per record.
 * Reads and deletes are rarer and go through the Kysely store (`reads`); both paths share one
 * connection and the encoding of sqlite-values.ts, and this file never loads Kysely.
 */
export class SqliteResponseStore implements ResponseStore {
  private insert: BetterSqlite3.Statement<InsertParameters> | undefined;

  constructor(
    private readonly database: BetterSqlite3.Database,
    private readonly reads: ResponseReads,
  ) {}

  async putIfAbsent(record: StoredResponseRecord): Promise<boolean> {
    const result = this.preparedInsert().run(
      record.id,
      record.keyId,
      record.body,
      writeSqliteTimestamp(record.createdAt),
      record.expiresAt === null ? null : writeSqliteTimestamp(record.expiresAt),
    );
    return result.changes > 0;
  }

  get(id: string, now?: Date): Promise<StoredResponseRecord | undefined> {
    return this.reads.get(id, now);
  }

  delete(id: string): Promise<boolean> {
    return this.reads.delete(id);
  }

  /**
   * Prepared on first use because the table exists only once `migrate()` has run. A failed
   * prepare (e.g. not migrated yet) is not cached, so the next insert tries again.
   */
  private preparedInsert(): BetterSqlite3.Statement<InsertParameters> {
    this.insert ??= this.database.prepare<InsertParameters>(insertStatement);
    return this.insert;
  }
}
