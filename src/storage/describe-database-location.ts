import path from 'node:path';
import { parseDatabaseUrl, sqliteMemoryFilename } from './parse-database-url.js';

/**
 * Where the data lives, for a person reading the start line: the SQLite file as an absolute path
 * (a relative one depends on the directory the gateway was started in), or the PostgreSQL URL
 * with its password hidden.
 */
export function describeDatabaseLocation(databaseUrl: string): string {
  const location = parseDatabaseUrl(databaseUrl);
  if (location.dialect === 'sqlite') {
    return location.filename === sqliteMemoryFilename ? 'SQLite in memory' : `SQLite ${path.resolve(location.filename)}`;
  }
  return `PostgreSQL ${redactPassword(location.connectionString)}`;
}

function redactPassword(connectionString: string): string {
  let url: URL;
  try {
    url = new URL(connectionString);
  } catch {
    // Not parseable as a URL: hide everything between the scheme and the host rather than guess.
    return connectionString.replace(/\/\/[^@/]*@/, '//***@');
  }
  if (url.password !== '') url.password = '***';
  if (url.searchParams.has('password')) url.searchParams.set('password', '***');
  return url.toString();
}
