import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Kysely, SqliteDialect } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openStorage } from './open-storage.js';
import { describeStorageContract, type UnmigratedDatabase } from './storage-contract.test-support.js';
import { ledgerEntry } from './storage-contract-records.test-support.js';
import { loadBetterSqlite3 } from './sqlite/load-better-sqlite3.js';

const { Database } = loadBetterSqlite3();

const temporaryDirectory = mkdtempSync(path.join(os.tmpdir(), 'switchyard-sqlite-test-'));
let databaseCounter = 0;

function nextDatabaseFile(): string {
  databaseCounter += 1;
  return path.join(temporaryDirectory, `nested-${databaseCounter}`, 'switchyard.db');
}

afterAll(() => {
  rmSync(temporaryDirectory, { recursive: true, force: true });
});

async function openUnmigratedFile(): Promise<UnmigratedDatabase> {
  const file = nextDatabaseFile();
  mkdirSync(path.dirname(file), { recursive: true });
  const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: new Database(file) }) });
  return {
    dialect: 'sqlite',
    db,
    async reopen() {
      await db.destroy();
      return openStorage(`sqlite:${file}`);
    },
  };
}

describeStorageContract('sqlite file', () => openStorage(`sqlite:${nextDatabaseFile()}`), openUnmigratedFile);
describeStorageContract('sqlite memory', () => openStorage('sqlite::memory:'));

describe('sqlite storage', () => {
  it('creates the parent directory and opens the file in WAL mode', async () => {
    const file = nextDatabaseFile();
    const storage = await openStorage(`sqlite:${file}`);
    await storage.migrate();
    await storage.close();
    expect(existsSync(file)).toBe(true);
    const database = new Database(file, { readonly: true });
    try {
      expect(database.pragma('journal_mode', { simple: true })).toBe('wal');
    } finally {
      database.close();
    }
  });

  it('keeps data across close and reopen of the same file', async () => {
    const file = nextDatabaseFile();
    const first = await openStorage(`sqlite:${file}`);
    await first.migrate();
    await first.ledger.append(ledgerEntry({ costNanoUsd: 2n ** 60n + 1n }));
    await first.close();
    const second = await openStorage(`sqlite:${file}`);
    await second.migrate();
    expect(second.dialect).toBe('sqlite');
    expect(await second.ledger.spentNanoUsd('key_1')).toBe(2n ** 60n + 1n);
    await second.close();
  });

  it('gives two connections to one file the setting the first of them stored', async () => {
    const file = nextDatabaseFile();
    const first = await openStorage(`sqlite:${file}`);
    await first.migrate();
    const second = await openStorage(`sqlite:${file}`);
    await second.migrate();
    try {
      expect(await second.settings.putIfAbsent('content_url_secret', 'from-second')).toBe('from-second');
      expect(await first.settings.putIfAbsent('content_url_secret', 'from-first')).toBe('from-second');
      expect(await first.settings.get('content_url_secret')).toBe('from-second');
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });

  it('stores money as an 8-byte INTEGER, not text or real', async () => {
    const file = nextDatabaseFile();
    const storage = await openStorage(`sqlite:${file}`);
    await storage.migrate();
    await storage.ledger.append(ledgerEntry({ costNanoUsd: 2n ** 62n + 3n }));
    await storage.close();
    const database = new Database(file, { readonly: true });
    try {
      const row = database
        .prepare('select typeof(cost_nano_usd) as type, cost_nano_usd as cost from usage_ledger')
        .safeIntegers(true)
        .get();
      expect(row).toEqual({ type: 'integer', cost: 2n ** 62n + 3n });
    } finally {
      database.close();
    }
  });
});
