import { sql, type Kysely } from 'kysely';
import type { ApiKeyRecord, ApiKeyStore } from '../ports.js';
import type { StorageDatabase } from './database-schema.js';
import type { SqlValueCodec } from './sql-value-codec.js';
import {
  readDate,
  readNullableBigInt,
  readNullableDate,
  readNullableNumber,
  readStringList,
  writeStringList,
} from './sql-values.js';

export class KyselyApiKeyStore implements ApiKeyStore {
  constructor(
    private readonly db: Kysely<StorageDatabase>,
    private readonly codec: SqlValueCodec,
  ) {}

  async insert(record: ApiKeyRecord): Promise<void> {
    const { codec } = this;
    await this.db
      .insertInto('api_keys')
      .values({
        id: record.id,
        name: record.name,
        prefix: record.prefix,
        hash: record.hash,
        scope_endpoints: writeStringList(record.scopes.endpoints),
        scope_models: writeStringList(record.scopes.models),
        budget_nano_usd: record.budgetNanoUsd,
        rpm: record.rpm,
        created_at: codec.writeTimestamp(record.createdAt),
        revoked_at: record.revokedAt === null ? null : codec.writeTimestamp(record.revokedAt),
        expires_at: record.expiresAt === null ? null : codec.writeTimestamp(record.expiresAt),
      })
      .execute();
  }

  async findByHash(hash: string): Promise<ApiKeyRecord | undefined> {
    const row = await this.selectKeys().where('hash', '=', hash).executeTakeFirst();
    return row === undefined ? undefined : toApiKeyRecord(row);
  }

  async findById(id: string): Promise<ApiKeyRecord | undefined> {
    const row = await this.selectKeys().where('id', '=', id).executeTakeFirst();
    return row === undefined ? undefined : toApiKeyRecord(row);
  }

  async list(): Promise<ApiKeyRecord[]> {
    // The id breaks ties between keys created in the same millisecond, so the order is stable.
    const rows = await this.selectKeys().orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
    return rows.map(toApiKeyRecord);
  }

  async anyExists(): Promise<boolean> {
    const row = await this.db.selectFrom('api_keys').select(sql<number>`1`.as('one')).limit(1).executeTakeFirst();
    return row !== undefined;
  }

  async revoke(id: string, at: Date): Promise<boolean> {
    const result = await this.db
      .updateTable('api_keys')
      .set({ revoked_at: this.codec.writeTimestamp(at) })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  private selectKeys() {
    return this.db
      .selectFrom('api_keys')
      .select([
        'id',
        'name',
        'prefix',
        'hash',
        'scope_endpoints',
        'scope_models',
        // Read as text: better-sqlite3 would otherwise return a float for values above 2^53.
        sql<string | null>`cast(${sql.ref('budget_nano_usd')} as text)`.as('budget_nano_usd'),
        'rpm',
        'created_at',
        'revoked_at',
        'expires_at',
      ]);
  }
}

interface ApiKeyRow {
  id: string;
  name: string;
  prefix: string;
  hash: string;
  scope_endpoints: string | null;
  scope_models: string | null;
  budget_nano_usd: string | null;
  rpm: number | null;
  created_at: unknown;
  revoked_at: unknown;
  expires_at: unknown;
}

function toApiKeyRecord(row: ApiKeyRow): ApiKeyRecord {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    hash: row.hash,
    scopes: { endpoints: readStringList(row.scope_endpoints), models: readStringList(row.scope_models) },
    budgetNanoUsd: readNullableBigInt(row.budget_nano_usd),
    rpm: readNullableNumber(row.rpm),
    createdAt: readDate(row.created_at),
    revokedAt: readNullableDate(row.revoked_at),
    expiresAt: readNullableDate(row.expires_at),
  };
}
