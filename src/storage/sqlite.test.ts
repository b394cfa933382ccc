import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { openStorage } from './open-storage.js';
import type { LedgerEntry } from './ports.js';
import { describeStorageContract } from './storage-contract.js';

const temporaryDirectory = mkdtempSync(path.join(os.tmpdir(), 'switchyard-sqlite-test-'));
let databaseCounter = 0;

function nextDatabaseFile(): string {
  databaseCounter += 1;
  return path.join(temporaryDirectory, `nested-${databaseCounter}`, 'switchyard.db');
}

afterAll(() => {
  rmSync(temporaryDirectory, { recursive: true, force: true });
});

describeStorageContract('sqlite file', () => openStorage(`sqlite:${nextDatabaseFile()}`));
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
    await first.ledger.append(entryCosting(2n ** 60n + 1n));
    await first.close();
    const second = await openStorage(`sqlite:${file}`);
    await second.migrate();
    expect(second.dialect).toBe('sqlite');
    expect(await second.ledger.spentNanoUsd('key_1')).toBe(2n ** 60n + 1n);
    await second.close();
  });

  it('stores money as an 8-byte INTEGER, not text or real', async () => {
    const file = nextDatabaseFile();
    const storage = await openStorage(`sqlite:${file}`);
    await storage.migrate();
    await storage.ledger.append(entryCosting(2n ** 62n + 3n));
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

function entryCosting(costNanoUsd: bigint): LedgerEntry {
  return {
    requestId: 'req_1',
    keyId: 'key_1',
    model: 'm',
    provider: 'p',
    upstreamModel: 'u',
    endpoint: 'chat',
    status: 200,
    inputUncached: 1,
    cacheRead: 0,
    cacheWrite: 0,
    output: 1,
    reasoning: 0,
    usageEstimated: false,
    costNanoUsd,
    createdAt: new Date('2025-03-01T00:00:00Z'),
    durationMs: 1,
  };
}
