import { sql } from 'kysely';
import type { SqlValueCodec } from '../kysely/sql-value-codec.js';

/**
 * SQLite has no timestamp or boolean type and better-sqlite3 binds neither Date nor boolean.
 * Timestamps are stored as `toISOString()` text: one fixed-width UTC format, so text order is
 * time order and the first ten characters are the UTC day.
 */
export const sqliteValueCodec: SqlValueCodec = {
  dialect: 'sqlite',
  writeTimestamp: (value) => value.toISOString(),
  writeBoolean: (value) => (value ? 1 : 0),
  readBoolean: (value) => value === 1 || value === 1n || value === true,
  utcDay: (column) => sql<string>`substr(${sql.ref(column)}, 1, 10)`,
};
