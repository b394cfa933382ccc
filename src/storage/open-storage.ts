import { parseDatabaseUrl } from './parse-database-url.js';
import type { Storage } from './ports.js';

/**
 * Opens storage for a database URL. The schema is not touched: call `migrate()` (serve and
 * `switchyard migrate` do) before use. Each driver is loaded only when its dialect is asked
 * for, so a PostgreSQL deployment never loads the native SQLite module and vice versa.
 */
export interface StorageTimeouts {
  readonly connectTimeoutMs: number;
  readonly queryTimeoutMs: number;
}

export async function openStorage(databaseUrl: string, timeouts?: StorageTimeouts): Promise<Storage> {
  const location = parseDatabaseUrl(databaseUrl);
  if (location.dialect === 'sqlite') {
    const { openSqliteStorage } = await import('./sqlite/open-sqlite-storage.js');
    return openSqliteStorage(location.filename);
  }
  const { openPostgresStorage } = await import('./postgres/open-postgres-storage.js');
  return openPostgresStorage(location.connectionString, timeouts);
}
