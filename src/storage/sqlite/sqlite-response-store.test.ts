import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Storage } from '../ports.js';
import type { StoredResponseRecord } from '../../stored-responses/response-store.js';
import { loadKyselyStorage, SqliteStorage } from './sqlite-storage.js';
import { loadBetterSqlite3 } from './load-better-sqlite3.js';

const { Database } = loadBetterSqlite3();

const temporaryDirectory = mkdtempSync(path.join(os.tmpdir(), 'switchyard-sqlite-responses-test-'));
let databaseCounter = 0;

function nextDatabaseFile(): string {
  databaseCounter += 1;
  return path.join(temporaryDirectory, `responses-${databaseCounter}.db`);
}

afterAll(() => {
  rmSync(temporaryDirectory, { recursive: true, force: true });
});

/** A migrated storage on a new file whose Kysely loads are counted. */
async function openMigrated(): Promise<{ storage: SqliteStorage; file: string; loads: () => number }> {
  const file = nextDatabaseFile();
  const setup = new SqliteStorage(new Database(file));
  await setup.migrate();
  await setup.close();
  let loads = 0;
  const storage = new SqliteStorage(new Database(file), (connection) => {
    loads += 1;
    return loadKyselyStorage(connection);
  });
  return { storage, file, loads: () => loads };
}

/** Kysely's own store over a migrated file: the reference the prepared upsert must match. */
async function openKysely(): Promise<{ storage: Storage; file: string }> {
  const file = nextDatabaseFile();
  const storage = await loadKyselyStorage(new Database(file));
  await storage.migrate();
  return { storage, file };
}

function readRawRows(file: string): unknown[] {
  const database = new Database(file, { readonly: true });
  try {
    return database
      .prepare(
        'select id, key_id, typeof(key_id) as key_type, body, typeof(body) as body_type, created_at, typeof(created_at) as created_type, ' +
          'expires_at, typeof(expires_at) as expires_type from stored_responses order by id',
      )
      .all();
  } finally {
    database.close();
  }
}

const writes: StoredResponseRecord[] = [
  record({ id: 'resp_a' }),
  record({ id: 'resp_b', keyId: null, expiresAt: null, body: '{"text":"caf\u00e9 \u2028 \ud83d\udc4d"}' }),
  record({ id: 'resp_a', keyId: null, body: '{"version":2}', createdAt: new Date('2025-05-02T03:04:05.006Z'), expiresAt: null }),
  record({ id: 'resp_b', keyId: 'key_2', expiresAt: new Date('2099-12-31T23:59:59.999Z') }),
];

describe('sqlite response store', () => {
  it('writes the same rows as the Kysely store, inserting new ids and leaving known ones as they were', async () => {
    const prepared = await openMigrated();
    const reference = await openKysely();
    for (const write of writes) {
      await prepared.storage.responses.putIfAbsent(write);
      await reference.storage.responses.putIfAbsent(write);
    }
    await prepared.storage.close();
    await reference.storage.close();
    const rows = readRawRows(prepared.file);
    expect(rows).toEqual(readRawRows(reference.file));
    expect(rows).toEqual([
      {
        id: 'resp_a',
        key_id: 'key_1',
        key_type: 'text',
        body: '{"version":1}',
        body_type: 'text',
        created_at: '2025-03-01T12:00:00.000Z',
        created_type: 'text',
        expires_at: '2025-04-01T00:00:00.000Z',
        expires_type: 'text',
      },
      {
        id: 'resp_b',
        key_id: null,
        key_type: 'null',
        body: '{"text":"caf\u00e9 \u2028 \ud83d\udc4d"}',
        body_type: 'text',
        created_at: '2025-03-01T12:00:00.000Z',
        created_type: 'text',
        expires_at: null,
        expires_type: 'null',
      },
    ]);
  });

  it('puts without loading Kysely, and what it put reads back through Kysely unchanged', async () => {
    const { storage, loads } = await openMigrated();
    await storage.migrate();
    await storage.responses.putIfAbsent(writes[0] as StoredResponseRecord);
    await storage.responses.putIfAbsent(writes[1] as StoredResponseRecord);
    expect(loads()).toBe(0);
    expect(await storage.responses.get('resp_a', new Date('2025-03-01T12:00:00.000Z'))).toEqual(writes[0]);
    expect(await storage.responses.get('resp_b')).toEqual(writes[1]);
    expect(await storage.responses.delete('resp_a')).toBe(true);
    expect(await storage.responses.get('resp_a', new Date('2025-03-01T12:00:00.000Z'))).toBeUndefined();
    expect(loads()).toBe(1);
    await storage.close();
  });

  it('rejects a put before migration and succeeds once the table exists', async () => {
    const storage = new SqliteStorage(new Database(nextDatabaseFile()));
    await expect(storage.responses.putIfAbsent(record())).rejects.toThrow(/no such table/);
    await storage.migrate();
    await storage.responses.putIfAbsent(record());
    expect(await storage.responses.get('resp_1', new Date('2025-03-01T12:00:00.000Z'))).toEqual(record());
    await storage.close();
  });
});

function record(overrides: Partial<StoredResponseRecord> = {}): StoredResponseRecord {
  return {
    id: 'resp_1',
    keyId: 'key_1',
    body: '{"version":1}',
    createdAt: new Date('2025-03-01T12:00:00.000Z'),
    expiresAt: new Date('2025-04-01T00:00:00.000Z'),
    ...overrides,
  };
}
