import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { ledgerEntry } from '../storage-contract-records.test-support.js';
import { sqliteSchemaIsCurrent } from './sqlite-schema-state.js';
import { loadKyselyStorage, SqliteStorage } from './sqlite-storage.js';
import { loadBetterSqlite3 } from './load-better-sqlite3.js';

const { Database } = loadBetterSqlite3();

const temporaryDirectory = mkdtempSync(path.join(os.tmpdir(), 'switchyard-sqlite-storage-test-'));
let databaseCounter = 0;

function nextDatabaseFile(): string {
  databaseCounter += 1;
  return path.join(temporaryDirectory, `storage-${databaseCounter}.db`);
}

afterAll(() => {
  rmSync(temporaryDirectory, { recursive: true, force: true });
});

/** A storage whose Kysely loads are counted. */
function openCounted(file: string): { storage: SqliteStorage; database: BetterSqlite3.Database; loads: () => number } {
  const database = new Database(file);
  let loads = 0;
  const storage = new SqliteStorage(database, (connection) => {
    loads += 1;
    return loadKyselyStorage(connection);
  });
  return { storage, database, loads: () => loads };
}

async function migratedFile(): Promise<string> {
  const file = nextDatabaseFile();
  const { storage } = openCounted(file);
  await storage.migrate();
  await storage.close();
  return file;
}

describe('sqlite storage', () => {
  it('migrates a new database through Kysely and then knows its schema is current', async () => {
    const { storage, database, loads } = openCounted(nextDatabaseFile());
    expect(sqliteSchemaIsCurrent(database)).toBe(false);
    await storage.migrate();
    expect(loads()).toBe(1);
    expect(sqliteSchemaIsCurrent(database)).toBe(true);
    await storage.close();
  });

  it('opens a migrated database, migrates, appends to the ledger, asks for keys and keeps settings without loading Kysely', async () => {
    const { storage, loads } = openCounted(await migratedFile());
    await storage.migrate();
    expect(await storage.ledger.appendMany([ledgerEntry({ requestId: 'req_1' }), ledgerEntry({ requestId: 'req_2' })])).toBe(2);
    expect(await storage.keys.anyExists()).toBe(false);
    expect(await storage.settings.putIfAbsent('content_url_secret', 'secret')).toBe('secret');
    expect(await storage.settings.get('content_url_secret')).toBe('secret');
    expect(loads()).toBe(0);
    await storage.close();
  });

  it('loads Kysely once, on the first query, and answers through it', async () => {
    const { storage, loads } = openCounted(await migratedFile());
    await storage.migrate();
    await storage.ledger.append(ledgerEntry({ requestId: 'req_1', costNanoUsd: 7n }));
    const [spent, keys] = await Promise.all([storage.ledger.spentNanoUsd('key_1'), storage.keys.list()]);
    expect(spent).toBe(7n);
    expect(keys).toEqual([]);
    expect(await storage.responses.get('resp_unknown')).toBeUndefined();
    expect(loads()).toBe(1);
    await storage.close();
  });

  it('leaves a database with a migration this build does not know to the migrator, which refuses it', async () => {
    const file = await migratedFile();
    const writer = new Database(file);
    writer.prepare("insert into kysely_migration (name, timestamp) values ('9999_from_a_newer_build', '2030-01-01T00:00:00.000Z')").run();
    writer.close();
    const { storage, database } = openCounted(file);
    expect(sqliteSchemaIsCurrent(database)).toBe(false);
    await expect(storage.migrate()).rejects.toThrow();
    await storage.close();
  });

  it('closes the connection whether or not Kysely was loaded, and refuses queries afterwards', async () => {
    const withoutKysely = openCounted(await migratedFile());
    await withoutKysely.storage.close();
    expect(withoutKysely.database.open).toBe(false);

    const withKysely = openCounted(await migratedFile());
    await withKysely.storage.keys.list();
    await withKysely.storage.close();
    expect(withKysely.database.open).toBe(false);
    await expect(withKysely.storage.keys.list()).rejects.toThrow(/closed/);
  });

  it('answers a ping and counts video jobs by state from prepared statements without loading Kysely, and refuses a ping once closed', async () => {
    const { storage, loads } = openCounted(await migratedFile());
    await storage.ping();
    await storage.ping();
    expect(await storage.videoJobs.countByStatus()).toEqual({});
    expect(loads()).toBe(0);
    await storage.close();
    await expect(storage.ping()).rejects.toThrow(/closed/);
  });
});
