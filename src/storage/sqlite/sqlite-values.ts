/**
 * How values the SQLite driver cannot bind are stored. Kept free of Kysely so the prepared-statement
 * paths can encode without loading it; the SQLite value codec uses these same functions.
 * Timestamps are `toISOString()` text: one fixed-width UTC format, so text order is time order
 * and the first ten characters are the UTC day.
 */
export function writeSqliteTimestamp(value: Date): string {
  return value.toISOString();
}

export function writeSqliteBoolean(value: boolean): number {
  return value ? 1 : 0;
}

export function readSqliteBoolean(value: unknown): boolean {
  return value === 1 || value === 1n || value === true;
}
