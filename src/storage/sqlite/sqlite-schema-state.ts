import type BetterSqlite3 from 'better-sqlite3';
import { storageMigrations } from '../migrations/storage-migrations.js';

/** Kysely's Migrator records applied migrations here (its DEFAULT_MIGRATION_TABLE). */
const migrationTable = 'kysely_migration';

/**
 * True when the database has applied exactly the migrations this build knows, so `migrate()`
 * has nothing to do and Kysely need not be loaded. Anything else (a new database, a missing or
 * an unknown migration) answers false and leaves the verdict, and any error, to Kysely's Migrator.
 */
export function sqliteSchemaIsCurrent(database: BetterSqlite3.Database): boolean {
  const known = Object.keys(storageMigrations('sqlite'));
  let applied: unknown[];
  try {
    applied = database.prepare(`select name from ${migrationTable}`).pluck().all();
  } catch {
    // No migration table yet: never migrated.
    return false;
  }
  const appliedNames = new Set(applied);
  return appliedNames.size === known.length && known.every((name) => appliedNames.has(name));
}
