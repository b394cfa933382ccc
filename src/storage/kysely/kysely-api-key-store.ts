import { sql, type Kysely } from 'kysely';
import type { ApiKeyStore } from '../../keys/api-key-store.js';
import type { ApiKeyChanges, ApiKeyRecord } from '../../keys/api-key.js';
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
        is_admin: codec.writeBoolean(record.admin),
        budget_nano_usd: record.budgetNanoUsd,
        daily_budget_nano_usd: record.dailyBudgetNanoUsd,
        monthly_budget_nano_usd: record.monthlyBudgetNanoUsd,
        rpm: record.rpm,
        tpm: record.tpm,
        concurrency: record.concurrency,
        created_at: codec.writeTimestamp(record.createdAt),
        revoked_at: this.nullableTimestamp(record.revokedAt),
        expires_at: this.nullableTimestamp(record.expiresAt),
        last_used_at: this.nullableTimestamp(record.lastUsedAt),
        previous_hash: record.previousHash,
        previous_hash_expires_at: this.nullableTimestamp(record.previousHashExpiresAt),
      })
      .execute();
  }

  async findByHash(hash: string): Promise<ApiKeyRecord | undefined> {
    const row = await this.selectKeys()
      .where((where) => where.or([where('hash', '=', hash), where('previous_hash', '=', hash)]))
      .executeTakeFirst();
    return row === undefined ? undefined : this.toApiKeyRecord(row);
  }

  async findById(id: string): Promise<ApiKeyRecord | undefined> {
    const row = await this.selectKeys().where('id', '=', id).executeTakeFirst();
    return row === undefined ? undefined : this.toApiKeyRecord(row);
  }

  async list(): Promise<ApiKeyRecord[]> {
    // The id breaks ties between keys created in the same millisecond, so the order is stable.
    const rows = await this.selectKeys().orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
    return rows.map((row) => this.toApiKeyRecord(row));
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

  async update(id: string, changes: ApiKeyChanges): Promise<ApiKeyRecord | undefined> {
    const set: Record<string, unknown> = {};
    if (changes.name !== undefined) set.name = changes.name;
    if (changes.scopes?.endpoints !== undefined) set.scope_endpoints = writeStringList(changes.scopes.endpoints);
    if (changes.scopes?.models !== undefined) set.scope_models = writeStringList(changes.scopes.models);
    if (changes.budgetNanoUsd !== undefined) set.budget_nano_usd = changes.budgetNanoUsd;
    if (changes.dailyBudgetNanoUsd !== undefined) set.daily_budget_nano_usd = changes.dailyBudgetNanoUsd;
    if (changes.monthlyBudgetNanoUsd !== undefined) set.monthly_budget_nano_usd = changes.monthlyBudgetNanoUsd;
    if (changes.rpm !== undefined) set.rpm = changes.rpm;
    if (changes.tpm !== undefined) set.tpm = changes.tpm;
    if (changes.concurrency !== undefined) set.concurrency = changes.concurrency;
    if (changes.expiresAt !== undefined) set.expires_at = this.nullableTimestamp(changes.expiresAt);
    if (Object.keys(set).length > 0) await this.db.updateTable('api_keys').set(set).where('id', '=', id).execute();
    return this.findById(id);
  }

  async rotate(id: string, next: { readonly prefix: string; readonly hash: string }, previousValidUntil: Date): Promise<ApiKeyRecord | undefined> {
    const result = await this.db
      .updateTable('api_keys')
      .set((update) => ({
        previous_hash: update.ref('hash'),
        previous_hash_expires_at: this.codec.writeTimestamp(previousValidUntil),
        hash: next.hash,
        prefix: next.prefix,
      }))
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n ? this.findById(id) : undefined;
  }

  async markUsed(uses: readonly { readonly id: string; readonly at: Date }[]): Promise<void> {
    for (const use of uses) {
      const at = this.codec.writeTimestamp(use.at);
      await this.db
        .updateTable('api_keys')
        .set({ last_used_at: at })
        .where('id', '=', use.id)
        .where((where) => where.or([where('last_used_at', 'is', null), where('last_used_at', '<', at)]))
        .execute();
    }
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
        sql<string | null>`cast(${sql.ref('daily_budget_nano_usd')} as text)`.as('daily_budget_nano_usd'),
        sql<string | null>`cast(${sql.ref('monthly_budget_nano_usd')} as text)`.as('monthly_budget_nano_usd'),
        'is_admin',
        'rpm',
        'tpm',
        'concurrency',
        'created_at',
        'revoked_at',
        'expires_at',
        'last_used_at',
        'previous_hash',
        'previous_hash_expires_at',
      ]);
  }

  private nullableTimestamp(value: Date | null): Date | string | null {
    return value === null ? null : this.codec.writeTimestamp(value);
  }

  private toApiKeyRecord(row: ApiKeyRow): ApiKeyRecord {
    return {
      id: row.id,
      name: row.name,
      prefix: row.prefix,
      hash: row.hash,
      scopes: { endpoints: readStringList(row.scope_endpoints), models: readStringList(row.scope_models) },
      admin: this.codec.readBoolean(row.is_admin),
      budgetNanoUsd: readNullableBigInt(row.budget_nano_usd),
      dailyBudgetNanoUsd: readNullableBigInt(row.daily_budget_nano_usd),
      monthlyBudgetNanoUsd: readNullableBigInt(row.monthly_budget_nano_usd),
      rpm: readNullableNumber(row.rpm),
      tpm: readNullableNumber(row.tpm),
      concurrency: readNullableNumber(row.concurrency),
      createdAt: readDate(row.created_at),
      revokedAt: readNullableDate(row.revoked_at),
      expiresAt: readNullableDate(row.expires_at),
      lastUsedAt: readNullableDate(row.last_used_at),
      previousHash: row.previous_hash,
      previousHashExpiresAt: readNullableDate(row.previous_hash_expires_at),
    };
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
  daily_budget_nano_usd: string | null;
  monthly_budget_nano_usd: string | null;
  is_admin: unknown;
  rpm: number | null;
  tpm: number | null;
  concurrency: number | null;
  created_at: unknown;
  revoked_at: unknown;
  expires_at: unknown;
  last_used_at: unknown;
  previous_hash: string | null;
  previous_hash_expires_at: unknown;
}
