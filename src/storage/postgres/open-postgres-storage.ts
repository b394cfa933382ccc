import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { StorageDatabase } from '../kysely/database-schema.js';
import { KyselyStorage } from '../kysely/kysely-storage.js';
import type { Storage } from '../ports.js';
import { postgresValueCodec } from './postgres-value-codec.js';

/**
 * Bounded waits: a server that stopped answering fails a query after `queryTimeoutMs` (and a new
 * connection after `connectTimeoutMs`) instead of holding the call that needs it forever. Broken
 * connections leave the pool and the next query opens a new one, so the gateway recovers on its
 * own when the server comes back.
 */
export async function openPostgresStorage(connectionString: string, timeouts?: { readonly connectTimeoutMs: number; readonly queryTimeoutMs: number }): Promise<Storage> {
  const pool = new pg.Pool({
    connectionString,
    connectionTimeoutMillis: timeouts?.connectTimeoutMs ?? 5_000,
    query_timeout: timeouts?.queryTimeoutMs ?? 10_000,
  });
  // A connection the server dropped reports an 'error' event: on an idle connection to the pool,
  // on one in use to the connection itself. Unheard, either ends the process; the query that was
  // running fails on its own, and the pool opens a new connection for the next one.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  const db = new Kysely<StorageDatabase>({ dialect: new PostgresDialect({ pool }) });
  return new KyselyStorage(db, postgresValueCodec);
}
