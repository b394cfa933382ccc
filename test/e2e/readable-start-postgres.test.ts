import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresTestDatabase, type PostgresTestDatabase } from '../support/postgres-test-database.js';
import { spawnGateway, zeroConfigEnvironment, type SpawnedGateway } from '../support/spawned-gateway.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = path.join(root, 'bin', 'switchyard.js');
const adminUrl = process.env.TEST_POSTGRES_URL;

/**
 * The start line names the database so the operator knows where the ledger goes, but a terminal
 * is often shared or recorded: a password, in the URL's user part or in its query
 * (`password=`, `sslpassword=`), never appears in it. Run with `node scripts/with-postgres.js`.
 */
describe.skipIf(adminUrl === undefined)('the start line on PostgreSQL', () => {
  let database: PostgresTestDatabase;
  let gateway: SpawnedGateway;
  let directory: string;

  beforeAll(async () => {
    database = await createPostgresTestDatabase(adminUrl ?? '');
    directory = mkdtempSync(path.join(tmpdir(), 'switchyard-pg-start-'));
    // The throwaway server trusts every connection, so these secrets are carried and shown, never checked.
    const url = new URL(database.url);
    url.password = 'hunter2-password';
    url.searchParams.set('sslpassword', 'ssl-key-passphrase');
    url.searchParams.set('application_name', 'switchyard-test');
    gateway = await spawnGateway(process.execPath, [bin, 'serve', '--port', '0'], {
      cwd: directory,
      env: zeroConfigEnvironment({ SWITCHYARD_LOG_FORMAT: 'readable', DATABASE_URL: url.toString() }),
      urlPattern: /^switchyard listening on (http:\/\/\S+)/m,
    });
  });

  afterAll(async () => {
    await gateway?.stop();
    await database?.drop();
    rmSync(directory, { recursive: true, force: true });
  });

  it('names the database without its passwords', () => {
    const firstLine = gateway.stdout().split('\n')[0] ?? '';
    expect(firstLine).toContain(`database: PostgreSQL postgres://postgres:***@${new URL(database.url).host}${new URL(database.url).pathname}`);
    expect(firstLine).toContain('application_name=switchyard-test');
    expect(gateway.stdout()).not.toContain('hunter2-password');
    expect(gateway.stdout()).not.toContain('ssl-key-passphrase');
  });
});
