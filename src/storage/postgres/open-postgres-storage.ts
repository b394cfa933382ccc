import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { StorageDatabase } from '../kysely/database-schema.js';
import { KyselyStorage } from '../kysely/kysely-storage.js';
import type { Storage } from '../ports.js';
import { postgresValueCodec } from './postgres-value-codec.js';

export async function openPostgresStorage(connectionString: string): Promise<Storage> {
  const pool = new pg.Pool({ connectionString });
  const db = new Kysely<StorageDatabase>({ dialect: new PostgresDialect({ pool }) });
  return new KyselyStorage(db, postgresValueCodec);
}
