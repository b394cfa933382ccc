import { sql } from 'kysely';
import type { SqlValueCodec } from '../kysely/sql-value-codec.js';

/** PostgreSQL stores real `timestamptz` and `boolean` values; pg converts both ways itself. */
export const postgresValueCodec: SqlValueCodec = {
  dialect: 'postgres',
  writeTimestamp: (value) => value,
  writeBoolean: (value) => value,
  readBoolean: (value) => value === true,
  utcDay: (column) => sql<string>`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD')`,
};
