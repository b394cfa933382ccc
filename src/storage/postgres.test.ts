import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createPostgresTestDatabase, type PostgresTestDatabase } from '../../test/support/postgres-test-database.js';
import { openStorage } from './open-storage.js';
import { describeStorageContract, type UnmigratedDatabase } from './storage-contract.test-support.js';

// `npm test` runs under scripts/with-postgres.js, which always sets this; it is absent only when
// vitest is started by hand without that wrapper.
const adminUrl = process.env.TEST_POSTGRES_URL;

if (adminUrl === undefined || adminUrl === '') {
  describe.skip('postgres storage (TEST_POSTGRES_URL is not set; run under scripts/with-postgres.js)', () => {
    it('runs the storage contract against PostgreSQL', () => {});
  });
} else {
  const administrationUrl = adminUrl;
  const databases: PostgresTestDatabase[] = [];

  async function openFreshDatabase(): Promise<string> {
    const database = await createPostgresTestDatabase(administrationUrl);
    databases.push(database);
    return database.url;
  }

  afterAll(async () => {
    await Promise.all(databases.map((database) => database.drop()));
  });

  async function openUnmigratedDatabase(): Promise<UnmigratedDatabase> {
    const url = await openFreshDatabase();
    const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url }) }) });
    return {
      dialect: 'postgres',
      db,
      async reopen() {
        await db.destroy();
        return openStorage(url);
      },
    };
  }

  describeStorageContract('postgres', async () => openStorage(await openFreshDatabase()), openUnmigratedDatabase);

  describe('postgres storage', () => {
    it('accepts a postgresql:// URL and reports its dialect', async () => {
      const url = (await openFreshDatabase()).replace(/^postgres:/, 'postgresql:');
      const storage = await openStorage(url);
      try {
        await storage.migrate();
        expect(storage.dialect).toBe('postgres');
      } finally {
        await storage.close();
      }
    });

    it('lets two instances migrate the same database at once', async () => {
      // Several gateway instances may start together; Kysely's advisory lock must serialise them.
      const url = await openFreshDatabase();
      const first = await openStorage(url);
      const second = await openStorage(url);
      try {
        await Promise.all([first.migrate(), second.migrate()]);
        expect(await first.ledger.spentNanoUsd('key_1')).toBe(0n);
      } finally {
        await Promise.all([first.close(), second.close()]);
      }
    });

    it('gives two instances racing to store a setting the same value', async () => {
      // Instances starting together each generate a content URL secret; all must sign with one.
      const url = await openFreshDatabase();
      const first = await openStorage(url);
      const second = await openStorage(url);
      try {
        await first.migrate();
        await second.migrate();
        for (let round = 0; round < 5; round++) {
          const name = `setting_${round}`;
          const [kept, keptToo] = await Promise.all([first.settings.putIfAbsent(name, 'first'), second.settings.putIfAbsent(name, 'second')]);
          expect(keptToo).toBe(kept);
          expect(await second.settings.get(name)).toBe(kept);
        }
      } finally {
        await Promise.all([first.close(), second.close()]);
      }
    });
  });
}
