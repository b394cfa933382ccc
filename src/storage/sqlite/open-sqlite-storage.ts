import { sqliteMemoryFilename } from '../parse-database-url.js';
import type { Storage } from '../ports.js';
import { loadBetterSqlite3 } from './load-better-sqlite3.js';
import { ownerOnlyDatabaseFiles } from './owner-only-database-files.js';
import { SqliteStorage } from './sqlite-storage.js';

/** How long a writer waits for another process's lock before SQLite reports SQLITE_BUSY. */
const busyTimeoutMilliseconds = 5_000;

export async function openSqliteStorage(filename: string): Promise<Storage> {
  if (filename !== sqliteMemoryFilename) ownerOnlyDatabaseFiles(filename);
  const { Database } = loadBetterSqlite3();
  const database = new Database(filename, { timeout: busyTimeoutMilliseconds });
  try {
    // WAL lets readers (e.g. `switchyard usage`) run while the server writes.
    if (filename !== sqliteMemoryFilename) database.pragma('journal_mode = WAL');
    database.pragma(`busy_timeout = ${busyTimeoutMilliseconds}`);
    // With WAL, NORMAL stays consistent after a crash and only risks the last transactions on power loss.
    database.pragma('synchronous = NORMAL');
  } catch (error) {
    database.close();
    throw error;
  }
  return new SqliteStorage(database);
}
