import { Migrator, sql, type Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { storageMigrationProvider } from './migrations/storage-migrations.js';
import type { LedgerEntry } from '../metering/ledger-entry.js';
import type { Storage, StorageDialect } from './ports.js';
import { apiKey, at, hash, ledgerEntry, mediaOnly, storedResponse, totalsRow } from './storage-contract-records.test-support.js';
import { describeSpendContract } from './storage-contract-spend.test-support.js';
import { describeKeyAdministrationContract } from './storage-contract-key-administration.test-support.js';
import { describeLedgerReadsContract } from './storage-contract-ledger-reads.test-support.js';
import { describeVideoJobContract } from './storage-contract-video-jobs.test-support.js';

/** An empty database reached through a bare Kysely, so a test can build it at an earlier schema. */
export interface UnmigratedDatabase {
  readonly dialect: StorageDialect;
  readonly db: Kysely<unknown>;
  /** Releases `db` and opens the same database through the adapter under test. */
  reopen(): Promise<Storage>;
}

/**
 * Behaviour every Storage adapter must show. Each test gets a freshly opened storage from
 * `open` (which must return an empty database) and closes it afterwards. `openUnmigrated`, when
 * given, adds the tests of upgrading a database written by an earlier schema; it needs a
 * database that outlives its first connection, so an in-memory one cannot offer it.
 */
export function describeStorageContract(
  name: string,
  open: () => Promise<Storage>,
  openUnmigrated?: () => Promise<UnmigratedDatabase>,
): void {
  describe(`${name} storage contract`, () => {
    let storage: Storage;

    beforeEach(async () => {
      storage = await open();
      await storage.migrate();
    });

    afterEach(async () => {
      await storage.close();
    });

    it('answers a ping while the database is reachable', async () => {
      await expect(storage.ping()).resolves.toBeUndefined();
    });

    describe('api keys', () => {
      it('finds an inserted key by id and by hash with every field intact', async () => {
        const record = apiKey({
          budgetNanoUsd: 5_000_000_000n,
          rpm: 60,
          expiresAt: new Date('2030-01-02T03:04:05.678Z'),
          scopes: { endpoints: ['chat', 'responses'], models: ['gpt-4o-mini'] },
        });
        await storage.keys.insert(record);
        expect(await storage.keys.findById(record.id)).toEqual(record);
        expect(await storage.keys.findByHash(record.hash)).toEqual(record);
      });

      it('returns undefined for an unknown id or hash', async () => {
        await storage.keys.insert(apiKey());
        expect(await storage.keys.findById('key_unknown')).toBeUndefined();
        expect(await storage.keys.findByHash('0'.repeat(64))).toBeUndefined();
      });

      it('keeps "everything" (null) and "nothing" (empty list) scopes apart', async () => {
        const everything = apiKey({ id: 'key_all', hash: hash('all'), scopes: { endpoints: null, models: null } });
        const nothing = apiKey({ id: 'key_none', hash: hash('none'), scopes: { endpoints: [], models: [] } });
        const some = apiKey({
          id: 'key_some',
          hash: hash('some'),
          scopes: { endpoints: ['messages'], models: ['claude-sonnet-4-5', 'gpt-4.1'] },
        });
        for (const record of [everything, nothing, some]) await storage.keys.insert(record);
        expect((await storage.keys.findById('key_all'))?.scopes).toEqual({ endpoints: null, models: null });
        expect((await storage.keys.findById('key_none'))?.scopes).toEqual({ endpoints: [], models: [] });
        expect((await storage.keys.findById('key_some'))?.scopes).toEqual(some.scopes);
      });

      it('lists keys newest first', async () => {
        await storage.keys.insert(apiKey({ id: 'key_middle', hash: hash('b'), createdAt: new Date('2025-02-01T00:00:00Z') }));
        await storage.keys.insert(apiKey({ id: 'key_newest', hash: hash('c'), createdAt: new Date('2025-03-01T00:00:00Z') }));
        await storage.keys.insert(apiKey({ id: 'key_oldest', hash: hash('a'), createdAt: new Date('2025-01-01T00:00:00Z') }));
        const listed = await storage.keys.list();
        expect(listed.map((record) => record.id)).toEqual(['key_newest', 'key_middle', 'key_oldest']);
      });

      it('revokes a key once and keeps the first revocation time', async () => {
        const record = apiKey();
        await storage.keys.insert(record);
        const firstRevocation = new Date('2025-06-01T10:00:00.123Z');
        expect(await storage.keys.revoke(record.id, firstRevocation)).toBe(true);
        expect(await storage.keys.revoke(record.id, new Date('2025-07-01T00:00:00Z'))).toBe(false);
        expect((await storage.keys.findById(record.id))?.revokedAt).toEqual(firstRevocation);
      });

      it('returns false when revoking an unknown key', async () => {
        expect(await storage.keys.revoke('key_unknown', new Date())).toBe(false);
      });

      it('rejects a second key with the same hash', async () => {
        await storage.keys.insert(apiKey({ id: 'key_first' }));
        await expect(storage.keys.insert(apiKey({ id: 'key_second' }))).rejects.toThrow();
        expect((await storage.keys.list()).map((record) => record.id)).toEqual(['key_first']);
      });

      it('knows whether any key was ever stored, counting revoked and expired keys', async () => {
        expect(await storage.keys.anyExists()).toBe(false);
        const record = apiKey({ expiresAt: new Date('2020-01-01T00:00:00Z') });
        await storage.keys.insert(record);
        expect(await storage.keys.anyExists()).toBe(true);
        await storage.keys.revoke(record.id, new Date());
        expect(await storage.keys.anyExists()).toBe(true);
      });

      it('keeps a budget above 2^53 nano-USD exactly', async () => {
        const budget = 2n ** 60n + 7n;
        await storage.keys.insert(apiKey({ budgetNanoUsd: budget }));
        expect((await storage.keys.findById('key_1'))?.budgetNanoUsd).toBe(budget);
      });
    });

    describe('usage ledger', () => {
      it('appends an entry and lists it back with every field intact', async () => {
        const estimated = ledgerEntry({ requestId: 'req_estimated', usageEstimated: true, keyId: null });
        const counted = ledgerEntry({ requestId: 'req_counted', createdAt: new Date('2025-03-01T12:00:01.500Z') });
        expect(await storage.ledger.append(estimated)).toBe(true);
        expect(await storage.ledger.append(counted)).toBe(true);
        expect(await storage.ledger.list({})).toEqual([counted, estimated]);
      });

      it('ignores a second append with the same request id and keeps the first entry', async () => {
        const first = ledgerEntry({ costNanoUsd: 100n, status: 200 });
        expect(await storage.ledger.append(first)).toBe(true);
        const second = ledgerEntry({ costNanoUsd: 999n, status: 500, output: 1 });
        expect(await storage.ledger.append(second)).toBe(false);
        expect(await storage.ledger.list({})).toEqual([first]);
        expect(await storage.ledger.spentNanoUsd('key_1')).toBe(100n);
      });

      it('writes and reads back the images and video seconds buckets', async () => {
        const text = ledgerEntry({ requestId: 'req_text', createdAt: at('2025-03-01T12:00:00Z') });
        const images = ledgerEntry({ ...mediaOnly, requestId: 'req_images', endpoint: 'images', images: 4, createdAt: at('2025-03-01T12:00:01Z') });
        const video = ledgerEntry({ ...mediaOnly, requestId: 'req_video', endpoint: 'videos', videoSeconds: 12, createdAt: at('2025-03-01T12:00:02Z') });
        await storage.ledger.append(text);
        expect(await storage.ledger.appendMany([images, video])).toBe(2);
        expect(await storage.ledger.list({})).toEqual([video, images, text]);
      });

      it('keeps the first entry\'s images and video seconds when a request id is appended again', async () => {
        const first = ledgerEntry({ ...mediaOnly, endpoint: 'images', images: 2, videoSeconds: 0 });
        expect(await storage.ledger.append(first)).toBe(true);
        expect(await storage.ledger.append(ledgerEntry({ ...first, images: 5, videoSeconds: 8 }))).toBe(false);
        expect(await storage.ledger.appendMany([ledgerEntry({ ...first, images: 9, videoSeconds: 30 })])).toBe(0);
        expect(await storage.ledger.list({})).toEqual([first]);
      });

      it('sums images and video seconds in totals beside the token buckets', async () => {
        await storage.ledger.appendMany([
          ledgerEntry({ requestId: 'r1', images: 1 }),
          ledgerEntry({ requestId: 'r2', images: 3, videoSeconds: 5 }),
          ledgerEntry({ requestId: 'r3', videoSeconds: 8 }),
          ledgerEntry({ requestId: 'r4', model: 'm2', images: 7, videoSeconds: 11 }),
        ]);
        expect(await storage.ledger.totals({})).toEqual([
          { ...totalsRow('key_1', 'gpt-4o-mini', '2025-03-01', 3, 3n * 12_345n), images: 4, videoSeconds: 13 },
          { ...totalsRow('key_1', 'm2', '2025-03-01', 1, 12_345n), images: 7, videoSeconds: 11 },
        ]);
      });

      it('appends a batch in one go, skipping request ids already stored or repeated in the batch', async () => {
        await storage.ledger.append(ledgerEntry({ requestId: 'req_old', costNanoUsd: 1n }));
        const batch = [
          ...Array.from({ length: 1_200 }, (_, index) => ledgerEntry({ requestId: `req_${index}`, costNanoUsd: BigInt(index) })),
          ledgerEntry({ requestId: 'req_old', costNanoUsd: 99n }),
          ledgerEntry({ requestId: 'req_7', costNanoUsd: 99n }),
        ];
        expect(await storage.ledger.appendMany(batch)).toBe(1_200);
        const stored = await storage.ledger.list({ limit: 5_000 });
        expect(stored).toHaveLength(1_201);
        expect(stored.find((entry) => entry.requestId === 'req_old')?.costNanoUsd).toBe(1n);
        expect(stored.find((entry) => entry.requestId === 'req_7')?.costNanoUsd).toBe(7n);
        expect(await storage.ledger.appendMany([])).toBe(0);
      });

      it('keeps exactly one entry when the same request id is appended concurrently', async () => {
        const attempts = Array.from({ length: 20 }, (_, index) => ledgerEntry({ costNanoUsd: BigInt(index + 1) }));
        const outcomes = await Promise.all(attempts.map((entry) => storage.ledger.append(entry)));
        expect(outcomes.filter((inserted) => inserted)).toHaveLength(1);
        const kept = attempts[outcomes.indexOf(true)];
        expect(await storage.ledger.list({})).toEqual([kept]);
      });

      it('lists newest first, filtered by key, since and limit', async () => {
        await storage.ledger.append(ledgerEntry({ requestId: 'req_a', keyId: 'key_1', createdAt: at('2025-03-01T10:00:00Z') }));
        await storage.ledger.append(ledgerEntry({ requestId: 'req_b', keyId: 'key_2', createdAt: at('2025-03-01T11:00:00Z') }));
        await storage.ledger.append(ledgerEntry({ requestId: 'req_c', keyId: 'key_1', createdAt: at('2025-03-01T12:00:00Z') }));
        await storage.ledger.append(ledgerEntry({ requestId: 'req_d', keyId: 'key_1', createdAt: at('2025-03-01T13:00:00Z') }));
        const ids = async (filter: Parameters<Storage['ledger']['list']>[0]) =>
          (await storage.ledger.list(filter)).map((entry) => entry.requestId);
        expect(await ids({})).toEqual(['req_d', 'req_c', 'req_b', 'req_a']);
        expect(await ids({ keyId: 'key_1' })).toEqual(['req_d', 'req_c', 'req_a']);
        expect(await ids({ since: at('2025-03-01T11:00:00Z') })).toEqual(['req_d', 'req_c', 'req_b']);
        expect(await ids({ keyId: 'key_1', since: at('2025-03-01T11:00:00Z'), limit: 1 })).toEqual(['req_d']);
      });

      it('groups totals by key, model and UTC day', async () => {
        const entries: LedgerEntry[] = [
          ledgerEntry({ requestId: 'r1', keyId: 'key_1', model: 'm1', createdAt: at('2025-03-01T00:00:00.000Z'), costNanoUsd: 1n }),
          ledgerEntry({ requestId: 'r2', keyId: 'key_1', model: 'm1', createdAt: at('2025-03-01T23:59:59.999Z'), costNanoUsd: 2n }),
          ledgerEntry({ requestId: 'r3', keyId: 'key_1', model: 'm1', createdAt: at('2025-03-02T00:00:00.000Z'), costNanoUsd: 4n }),
          ledgerEntry({ requestId: 'r4', keyId: 'key_1', model: 'm2', createdAt: at('2025-03-01T12:00:00Z'), costNanoUsd: 8n }),
          ledgerEntry({ requestId: 'r5', keyId: 'key_2', model: 'm1', createdAt: at('2025-03-01T12:00:00Z'), costNanoUsd: 16n }),
          ledgerEntry({ requestId: 'r6', keyId: null, model: 'm1', createdAt: at('2025-03-01T13:00:00Z'), costNanoUsd: 32n }),
        ];
        for (const entry of entries) await storage.ledger.append(entry);
        const totals = await storage.ledger.totals({});
        // Each entry: input 10 + 3 + 2 = 15, output 20 + 5 = 25.
        expect(totals).toEqual([
          totalsRow('key_1', 'm1', '2025-03-01', 2, 3n),
          totalsRow('key_1', 'm2', '2025-03-01', 1, 8n),
          totalsRow('key_2', 'm1', '2025-03-01', 1, 16n),
          totalsRow(null, 'm1', '2025-03-01', 1, 32n),
          totalsRow('key_1', 'm1', '2025-03-02', 1, 4n),
        ]);
      });

      it('filters totals by key and since', async () => {
        await storage.ledger.append(ledgerEntry({ requestId: 'r1', keyId: 'key_1', createdAt: at('2025-03-01T10:00:00Z'), costNanoUsd: 1n }));
        await storage.ledger.append(ledgerEntry({ requestId: 'r2', keyId: 'key_1', createdAt: at('2025-03-01T12:00:00Z'), costNanoUsd: 2n }));
        await storage.ledger.append(ledgerEntry({ requestId: 'r3', keyId: 'key_2', createdAt: at('2025-03-01T12:00:00Z'), costNanoUsd: 4n }));
        const totals = await storage.ledger.totals({ keyId: 'key_1', since: at('2025-03-01T11:00:00Z') });
        expect(totals).toEqual([totalsRow('key_1', 'gpt-4o-mini', '2025-03-01', 1, 2n)]);
      });

      it('keeps costs above 2^53 nano-USD exactly in entries, totals and spend', async () => {
        // Neither value nor their sum is representable as a double: a float anywhere on the way breaks them.
        const large = 2n ** 53n + 1n;
        const larger = 2n ** 62n + 3n;
        await storage.ledger.append(ledgerEntry({ requestId: 'req_large', costNanoUsd: large }));
        await storage.ledger.append(ledgerEntry({ requestId: 'req_larger', costNanoUsd: larger }));
        const costs = (await storage.ledger.list({})).map((entry) => entry.costNanoUsd);
        costs.sort((left, right) => (left < right ? -1 : left > right ? 1 : 0));
        expect(costs).toEqual([large, larger]);
        expect((await storage.ledger.totals({}))[0]?.costNanoUsd).toBe(large + larger);
        expect(await storage.ledger.spentNanoUsd('key_1')).toBe(large + larger);
      });

      it('reports what a key has spent across all its entries and nothing for other keys', async () => {
        await storage.ledger.append(ledgerEntry({ requestId: 'r1', keyId: 'key_1', costNanoUsd: 5n }));
        await storage.ledger.append(ledgerEntry({ requestId: 'r2', keyId: 'key_1', costNanoUsd: 7n, createdAt: at('2024-01-01T00:00:00Z') }));
        await storage.ledger.append(ledgerEntry({ requestId: 'r3', keyId: 'key_2', costNanoUsd: 11n }));
        expect(await storage.ledger.spentNanoUsd('key_1')).toBe(12n);
        expect(await storage.ledger.spentNanoUsd('key_unused')).toBe(0n);
      });
    });

    describe('stored responses', () => {
      it('returns a stored response and undefined for an unknown id', async () => {
        const record = storedResponse({ expiresAt: at('2999-01-01T00:00:00Z') });
        await storage.responses.putIfAbsent(record);
        expect(await storage.responses.get(record.id)).toEqual(record);
        expect(await storage.responses.get('resp_unknown')).toBeUndefined();
      });

      it('keeps the first response stored under an id and refuses another under it', async () => {
        const first = storedResponse({ body: '{"version":1}' });
        expect(await storage.responses.putIfAbsent(first)).toBe(true);
        expect(await storage.responses.putIfAbsent(storedResponse({ body: '{"version":2}', keyId: null }))).toBe(false);
        expect(await storage.responses.get(first.id)).toEqual(first);
      });

      it('deletes a response once', async () => {
        const record = storedResponse();
        await storage.responses.putIfAbsent(record);
        expect(await storage.responses.delete(record.id)).toBe(true);
        expect(await storage.responses.get(record.id)).toBeUndefined();
        expect(await storage.responses.delete(record.id)).toBe(false);
      });

      it('hides a response once it has expired', async () => {
        const record = storedResponse({ expiresAt: at('2025-05-01T00:00:00Z') });
        await storage.responses.putIfAbsent(record);
        expect(await storage.responses.get(record.id, at('2025-04-30T23:59:59.999Z'))).toEqual(record);
        expect(await storage.responses.get(record.id, at('2025-05-01T00:00:00Z'))).toBeUndefined();
      });
    });

    describe('settings', () => {
      it('answers undefined for a setting never stored', async () => {
        expect(await storage.settings.get('content_url_secret')).toBeUndefined();
      });

      it('keeps the first value put and answers it to every later put', async () => {
        expect(await storage.settings.putIfAbsent('content_url_secret', 'first')).toBe('first');
        expect(await storage.settings.putIfAbsent('content_url_secret', 'second')).toBe('first');
        expect(await storage.settings.get('content_url_secret')).toBe('first');
        expect(await storage.settings.putIfAbsent('other_setting', 'other')).toBe('other');
        expect(await storage.settings.get('content_url_secret')).toBe('first');
      });

      it('resolves puts racing with different values to one of them, the same for all', async () => {
        const kept = await Promise.all(['a', 'b', 'c', 'd'].map((value) => storage.settings.putIfAbsent('raced', value)));
        expect(new Set(kept).size).toBe(1);
        expect(await storage.settings.get('raced')).toBe(kept[0]);
      });
    });

    describeLedgerReadsContract(() => storage);

    describeVideoJobContract(() => storage);
    describeSpendContract(() => storage);
    describeKeyAdministrationContract(() => storage);

    describe('migrations', () => {
      it('can run again without changing the schema or the data', async () => {
        const record = apiKey();
        await storage.keys.insert(record);
        await storage.ledger.append(ledgerEntry());
        await storage.migrate();
        await storage.migrate();
        expect(await storage.keys.findById(record.id)).toEqual(record);
        expect(await storage.ledger.list({})).toHaveLength(1);
      });
    });
  });

  if (openUnmigrated === undefined) return;
  const unmigrated = openUnmigrated;

  describe(`${name} storage upgraded from the initial schema`, () => {
    it('gives a ledger row written before the images and video buckets 0 in both, and accepts them after', async () => {
      const database = await unmigrated();
      let reopened: Storage | undefined;
      try {
        const migrator = new Migrator({ db: database.db, provider: storageMigrationProvider(database.dialect) });
        const initial = await migrator.migrateTo('0001_initial_schema');
        expect(initial.error).toBeUndefined();
        // The insert the initial schema's build made, as literals both dialects read alike.
        await sql`insert into usage_ledger (request_id, key_id, model, provider, upstream_model, endpoint, status,
          input_uncached, cache_read, cache_write, output, reasoning, usage_estimated, cost_nano_usd, created_at, duration_ms)
          values ('req_before', 'key_1', 'gpt-4o-mini', 'openai', 'gpt-4o-mini-2024-07-18', 'chat', 200,
          10, 3, 2, 20, 5, false, 12345, '2025-03-01T12:00:00.000Z', 842)`.execute(database.db);

        reopened = await database.reopen();
        await reopened.migrate();
        const before = ledgerEntry({ requestId: 'req_before' });
        expect(before).toMatchObject({ images: 0, videoSeconds: 0 });
        expect(await reopened.ledger.list({})).toEqual([before]);
        expect(await reopened.ledger.totals({})).toEqual([totalsRow('key_1', 'gpt-4o-mini', '2025-03-01', 1, 12_345n)]);

        const after = ledgerEntry({ requestId: 'req_after', images: 2, videoSeconds: 6, createdAt: at('2025-03-01T13:00:00Z') });
        expect(await reopened.ledger.append(after)).toBe(true);
        expect(await reopened.ledger.list({})).toEqual([after, before]);
      } finally {
        if (reopened === undefined) await database.db.destroy();
        else await reopened.close();
      }
    });

    it('sums the ledger rows written before running totals existed into them, and keeps adding after', async () => {
      const database = await unmigrated();
      let reopened: Storage | undefined;
      try {
        const migrator = new Migrator({ db: database.db, provider: storageMigrationProvider(database.dialect) });
        expect((await migrator.migrateTo('0004_video_jobs')).error).toBeUndefined();
        for (const [id, key, cost, createdAt] of [
          ['r1', "'key_1'", 100, '2026-02-28T23:00:00.000Z'],
          ['r2', "'key_1'", 20, '2026-03-01T01:00:00.000Z'],
          ['r3', 'null', 5, '2026-03-01T02:00:00.000Z'],
        ] as const) {
          await sql`insert into usage_ledger (request_id, key_id, model, provider, upstream_model, endpoint, status,
            input_uncached, cache_read, cache_write, output, reasoning, usage_estimated, cost_nano_usd, created_at, duration_ms, images, video_seconds)
            values (${sql.lit(id)}, ${sql.raw(key)}, 'gpt-4o-mini', 'openai', 'gpt-4o-mini', 'chat', 200,
            10, 0, 0, 20, 0, false, ${sql.lit(cost)}, ${sql.lit(createdAt)}, 842, 0, 0)`.execute(database.db);
        }
        reopened = await database.reopen();
        await reopened.migrate();
        expect(await reopened.ledger.spend('key_1', at('2026-03-01T12:00:00.000Z'))).toEqual({ total: 120n, month: 20n, day: 20n });
        // Charts over every key read the per-bucket totals, filled from the rollups the upgrade filled.
        const days = { step: 'day', since: at('2026-02-28T00:00:00.000Z'), until: at('2026-03-02T00:00:00.000Z') } as const;
        expect(await reopened.ledger.series({ metric: 'requests', ...days })).toEqual([
          { at: at('2026-02-28T00:00:00.000Z'), value: 1 },
          { at: at('2026-03-01T00:00:00.000Z'), value: 2 },
        ]);
        // … and reports by key read the rollups, which SQLite has moved into a table in key order.
        expect(await reopened.ledger.usage({ groupBy: 'key' })).toMatchObject([
          { group: '', requests: 1, costNanoUsd: 5n },
          { group: 'key_1', requests: 2, costNanoUsd: 120n },
        ]);
        await reopened.ledger.append(ledgerEntry({ requestId: 'r4', keyId: 'key_1', costNanoUsd: 3n, createdAt: at('2026-03-01T12:00:00.000Z') }));
        expect(await reopened.ledger.spend('key_1', at('2026-03-01T12:00:00.000Z'))).toEqual({ total: 123n, month: 23n, day: 23n });
        expect(await reopened.ledger.series({ metric: 'cost', ...days })).toEqual([
          { at: at('2026-02-28T00:00:00.000Z'), value: 100n },
          { at: at('2026-03-01T00:00:00.000Z'), value: 28n },
        ]);
      } finally {
        if (reopened === undefined) await database.db.destroy();
        else await reopened.close();
      }
    });
  });
}
