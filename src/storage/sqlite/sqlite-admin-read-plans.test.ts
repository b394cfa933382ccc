import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminReads, fillForReads } from '../admin-reads.test-support.js';
import { SqliteStorage } from './sqlite-storage.js';
import { loadBetterSqlite3 } from './load-better-sqlite3.js';

const { Database } = loadBetterSqlite3();

/**
 * The plan SQLite chooses for every statement of every admin and request-path read (see
 * admin-reads.test-support.ts): the ledger is only ever searched through an index, or walked in
 * index order by a query that stops at its LIMIT; pages never sort what they matched. Plans
 * depend on the schema, not on how many rows there are (no ANALYZE statistics are kept), so a
 * small database shows what a large one would do; bench/console-scale.mjs times them at 10^6 rows.
 */
describe('sqlite admin read plans', () => {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'switchyard-plans-'));
  const file = path.join(directory, 'plans.db');
  let captured: string[] | undefined;
  // `verbose` hands over each statement as run, with its values written in.
  const storage = new SqliteStorage(new Database(file, { verbose: (statement) => captured?.push(String(statement)) }));
  let explainer: BetterSqlite3.Database;

  beforeAll(async () => {
    await storage.migrate();
    await fillForReads(storage);
    explainer = new Database(file, { readonly: true });
  });

  afterAll(async () => {
    explainer.close();
    await storage.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it('keeps the rollups and the totals in key order, so a range is a run of adjacent rows', () => {
    const tables = explainer.prepare<[], { name: string; sql: string }>("select name, sql from sqlite_master where name in ('usage_rollups', 'usage_totals')").all();
    expect(tables.map((table) => [table.name, /without rowid\s*$/i.test(table.sql)]).sort()).toEqual([
      ['usage_rollups', true],
      ['usage_totals', true],
    ]);
  });

  it.each(adminReads.map((read) => [read.name, read] as const))('%s', async (_, read) => {
    captured = [];
    await read.read(storage);
    const statements = captured.filter((statement) => /^\s*select/i.test(statement));
    captured = undefined;
    expect(statements.length).toBeGreaterThan(0);
    for (const statement of statements) {
      const plan = explainer.prepare<[], { detail: string }>(`EXPLAIN QUERY PLAN ${statement}`).all().map((row) => row.detail);
      const faults = plan.filter(
        (line) =>
          (/^SCAN (usage_ledger|usage_rollups|key_spend)\b/.test(line) && !(read.paged && /USING (COVERING )?INDEX/.test(line) && /\blimit\b/i.test(statement))) ||
          /^SCAN api_keys$/.test(line) ||
          (read.paged && /TEMP B-TREE FOR .*ORDER BY/.test(line)),
      );
      expect(faults, `${statement}\n${plan.join('\n')}`).toEqual([]);
    }
  });
});
