import type BetterSqlite3 from 'better-sqlite3';
import type { SettingsStore } from '../ports.js';

const selectStatement = 'SELECT value FROM gateway_settings WHERE name = ?';
/** The same insert-or-ignore the Kysely store runs. */
const insertStatement = 'INSERT INTO gateway_settings (name, value) VALUES (?, ?) ON CONFLICT(name) DO NOTHING';

/**
 * The SQLite settings store, on statements prepared on first use: settings are read when the
 * gateway starts, and a gateway whose database is already migrated must not load Kysely for that.
 */
export class SqliteSettingsStore implements SettingsStore {
  private select: BetterSqlite3.Statement<[string], string> | undefined;
  private insert: BetterSqlite3.Statement<[string, string]> | undefined;

  constructor(private readonly database: BetterSqlite3.Database) {}

  async get(name: string): Promise<string | undefined> {
    this.select ??= this.database.prepare<[string], string>(selectStatement).pluck();
    return this.select.get(name);
  }

  async putIfAbsent(name: string, value: string): Promise<string> {
    this.insert ??= this.database.prepare<[string, string]>(insertStatement);
    // better-sqlite3 is synchronous, so nothing in this process runs between the two statements;
    // another process's insert is serialised by SQLite's write lock.
    this.insert.run(name, value);
    const stored = await this.get(name);
    if (stored === undefined) throw new Error(`The setting ${name} was neither stored nor found.`);
    return stored;
  }
}
