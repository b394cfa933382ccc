import { Kysely, PostgresDialect, type CompiledQuery } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresTestDatabase, type PostgresTestDatabase } from '../../../test/support/postgres-test-database.js';
import { adminReads, fillForReads } from '../admin-reads.test-support.js';
import type { StorageDatabase } from '../kysely/database-schema.js';
import { KyselyStorage } from '../kysely/kysely-storage.js';
import { postgresValueCodec } from './postgres-value-codec.js';

const adminUrl = process.env.TEST_POSTGRES_URL;

/**
 * The PostgreSQL side of sqlite-admin-read-plans.test.ts. On a small table the planner rightly
 * prefers reading it whole, so plans are taken with sequential scans disabled: a `Seq Scan` of
 * the ledger, the rollups or the spend table that remains means no index can serve the query,
 * and a `Sort` in a page's plan means the page sorts what it matched instead of walking an index.
 */
describe.skipIf(adminUrl === undefined || adminUrl === '')('postgres admin read plans', () => {
  let database: PostgresTestDatabase;
  let storage: KyselyStorage;
  let explainer: pg.Client;
  let captured: CompiledQuery[] | undefined;

  beforeAll(async () => {
    database = await createPostgresTestDatabase(adminUrl ?? '');
    const db = new Kysely<StorageDatabase>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: database.url }) }),
      log: (event) => {
        captured?.push(event.query);
      },
    });
    storage = new KyselyStorage(db, postgresValueCodec);
    await storage.migrate();
    await fillForReads(storage);
    explainer = new pg.Client({ connectionString: database.url });
    await explainer.connect();
    await explainer.query('analyze');
    await explainer.query('set enable_seqscan = off');
  });

  afterAll(async () => {
    await explainer?.end();
    await storage?.close();
    await database?.drop();
  });

  it.each(adminReads.map((read) => [read.name, read] as const))('%s', async (_, read) => {
    captured = [];
    await read.read(storage);
    const statements = captured.filter((query) => /^\s*select/i.test(query.sql));
    captured = undefined;
    expect(statements.length).toBeGreaterThan(0);
    for (const statement of statements) {
      const result = await explainer.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${statement.sql}`, [...statement.parameters]);
      const plan = result.rows.map((row) => row['QUERY PLAN']);
      const faults = plan.filter((line) => /Seq Scan on (usage_ledger|usage_rollups|key_spend)\b/.test(line) || (read.paged && /\bSort\b/.test(line)));
      expect(faults, `${statement.sql}\n${plan.join('\n')}`).toEqual([]);
    }
  });
});
