import type { Kysely } from 'kysely';
import type { ResponseStore, StoredResponseRecord } from '../../stored-responses/response-store.js';
import type { StorageDatabase } from './database-schema.js';
import type { SqlValueCodec } from './sql-value-codec.js';
import { readDate, readNullableDate } from './sql-values.js';

export class KyselyResponseStore implements ResponseStore {
  constructor(
    private readonly db: Kysely<StorageDatabase>,
    private readonly codec: SqlValueCodec,
  ) {}

  async putIfAbsent(record: StoredResponseRecord): Promise<boolean> {
    const { codec } = this;
    const result = await this.db
      .insertInto('stored_responses')
      .values({
        id: record.id,
        key_id: record.keyId,
        body: record.body,
        created_at: codec.writeTimestamp(record.createdAt),
        expires_at: record.expiresAt === null ? null : codec.writeTimestamp(record.expiresAt),
      })
      .onConflict((conflict) => conflict.column('id').doNothing())
      .executeTakeFirst();
    return (result.numInsertedOrUpdatedRows ?? 0n) > 0n;
  }

  async get(id: string, now: Date = new Date()): Promise<StoredResponseRecord | undefined> {
    const row = await this.db
      .selectFrom('stored_responses')
      .select(['id', 'key_id', 'body', 'created_at', 'expires_at'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (row === undefined) return undefined;
    const expiresAt = readNullableDate(row.expires_at);
    // Expired rows may linger until a sweep deletes them; they must already be invisible.
    if (expiresAt !== null && expiresAt.getTime() <= now.getTime()) return undefined;
    return { id: row.id, keyId: row.key_id, body: row.body, createdAt: readDate(row.created_at), expiresAt };
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('stored_responses').where('id', '=', id).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }
}
