import { sql } from 'kysely';
import type { SqlValueCodec } from '../kysely/sql-value-codec.js';
import { readSqliteBoolean, writeSqliteBoolean, writeSqliteTimestamp } from './sqlite-values.js';

/** SQLite has no timestamp or boolean type and better-sqlite3 binds neither Date nor boolean. */
export const sqliteValueCodec: SqlValueCodec = {
  dialect: 'sqlite',
  writeTimestamp: writeSqliteTimestamp,
  writeBoolean: writeSqliteBoolean,
  readBoolean: readSqliteBoolean,
  // Timestamps are ISO text (see sqlite-values.ts), so the UTC day is the first ten characters.
  utcDay: (column) => sql<string>`substr(${sql.ref(column)}, 1, 10)`,
};
