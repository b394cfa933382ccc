import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { LedgerEntry } from '../../metering/ledger-entry.js';
import type { Storage } from '../ports.js';
import { ledgerEntry } from '../storage-contract-records.test-support.js';
import { openSqliteStorage } from './open-sqlite-storage.js';
import { loadBetterSqlite3 } from './load-better-sqlite3.js';

const { Database } = loadBetterSqlite3();

const temporaryDirectory = mkdtempSync(path.join(os.tmpdir(), 'switchyard-sqlite-ledger-test-'));
let databaseCounter = 0;

function nextDatabaseFile(): string {
  databaseCounter += 1;
  return path.join(temporaryDirectory, `ledger-${databaseCounter}.db`);
}

afterAll(() => {
  rmSync(temporaryDirectory, { recursive: true, force: true });
});

async function withStorage<T>(file: string, use: (storage: Storage) => Promise<T>, migrate = true): Promise<T> {
  const storage = await openSqliteStorage(file);
  try {
    if (migrate) await storage.migrate();
    return await use(storage);
  } finally {
    await storage.close();
  }
}

function readRawRows(file: string): unknown[] {
  const database = new Database(file, { readonly: true });
  try {
    return database
      .prepare(
        'select request_id, typeof(usage_estimated) as estimated_type, usage_estimated, typeof(created_at) as created_type, ' +
          'created_at, typeof(cost_nano_usd) as cost_type, cost_nano_usd, typeof(status) as status_type from usage_ledger order by request_id',
      )
      .safeIntegers(true)
      .all();
  } finally {
    database.close();
  }
}

describe('sqlite usage ledger appends', () => {
  it('stores booleans as 0/1, timestamps as ISO text and cost as an exact 8-byte integer', async () => {
    const file = nextDatabaseFile();
    await withStorage(file, async (storage) => {
      await storage.ledger.appendMany([
        ledgerEntry({ requestId: 'req_a', usageEstimated: true, costNanoUsd: 2n ** 62n + 3n }),
        ledgerEntry({ requestId: 'req_b', usageEstimated: false, createdAt: new Date('2025-03-01T23:59:59.999Z') }),
      ]);
    });
    expect(readRawRows(file)).toEqual([
      {
        request_id: 'req_a',
        estimated_type: 'integer',
        usage_estimated: 1n,
        created_type: 'text',
        created_at: '2025-03-01T12:00:00.000Z',
        cost_type: 'integer',
        cost_nano_usd: 2n ** 62n + 3n,
        status_type: 'integer',
      },
      {
        request_id: 'req_b',
        estimated_type: 'integer',
        usage_estimated: 0n,
        created_type: 'text',
        created_at: '2025-03-01T23:59:59.999Z',
        cost_type: 'integer',
        cost_nano_usd: 12_345n,
        status_type: 'integer',
      },
    ]);
  });

  it('counts only new request ids across many batches and keeps the first entry of each', async () => {
    await withStorage(nextDatabaseFile(), async (storage) => {
      expect(await storage.ledger.appendMany([ledgerEntry({ requestId: 'req_1' }), ledgerEntry({ requestId: 'req_2' })])).toBe(2);
      expect(
        await storage.ledger.appendMany([
          ledgerEntry({ requestId: 'req_2', costNanoUsd: 1n }),
          ledgerEntry({ requestId: 'req_3', costNanoUsd: 3n }),
          ledgerEntry({ requestId: 'req_3', costNanoUsd: 4n }),
        ]),
      ).toBe(1);
      expect(await storage.ledger.append(ledgerEntry({ requestId: 'req_1', costNanoUsd: 9n }))).toBe(false);
      const costs = (await storage.ledger.list({})).map((stored) => [stored.requestId, stored.costNanoUsd]);
      costs.sort((left, right) => String(left[0]).localeCompare(String(right[0])));
      expect(costs).toEqual([
        ['req_1', 12_345n],
        ['req_2', 12_345n],
        ['req_3', 3n],
      ]);
    });
  });

  it('rejects an append before migration and succeeds once the table exists', async () => {
    await withStorage(
      nextDatabaseFile(),
      async (storage) => {
        await expect(storage.ledger.append(ledgerEntry())).rejects.toThrow(/no such table/);
        await storage.migrate();
        expect(await storage.ledger.append(ledgerEntry())).toBe(true);
        expect(await storage.ledger.spentNanoUsd('key_1')).toBe(12_345n);
      },
      false,
    );
  });

  it('writes a batch all or nothing', async () => {
    await withStorage(nextDatabaseFile(), async (storage) => {
      // A NULL model violates NOT NULL on the second row; the first row must not stay behind.
      const invalid = { ...ledgerEntry({ requestId: 'req_invalid' }), model: null } as unknown as LedgerEntry;
      await expect(storage.ledger.appendMany([ledgerEntry({ requestId: 'req_valid' }), invalid])).rejects.toThrow();
      expect(await storage.ledger.list({})).toEqual([]);
      expect(await storage.ledger.appendMany([ledgerEntry({ requestId: 'req_valid' })])).toBe(1);
    });
  });
});
