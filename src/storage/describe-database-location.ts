import path from 'node:path';
import { parseDatabaseUrl, sqliteMemoryFilename } from './parse-database-url.js';
import { redactConnectionUrl } from './redact-connection-url.js';

/**
 * Where the data lives, for a person reading the start line: the SQLite file as an absolute path
 * (a relative one depends on the directory the gateway was started in), or the PostgreSQL URL
 * with its passwords hidden (user part and query).
 */
export function describeDatabaseLocation(databaseUrl: string): string {
  const location = parseDatabaseUrl(databaseUrl);
  if (location.dialect === 'sqlite') {
    return location.filename === sqliteMemoryFilename ? 'SQLite in memory' : `SQLite ${path.resolve(location.filename)}`;
  }
  return `PostgreSQL ${redactConnectionUrl(location.connectionString)}`;
}
