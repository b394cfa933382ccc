import { randomBytes } from 'node:crypto';
import pg from 'pg';

export interface PostgresTestDatabase {
  /** Connection string for the new, empty database. */
  readonly url: string;
  /** Drops the database, disconnecting anything still attached to it. */
  drop(): Promise<void>;
}

/**
 * Creates a uniquely named, empty database on the server behind `adminUrl` (a superuser
 * connection, as `scripts/with-postgres.js` provides in TEST_POSTGRES_URL), so tests never see
 * each other's rows and never touch the admin database.
 */
export async function createPostgresTestDatabase(adminUrl: string): Promise<PostgresTestDatabase> {
  const name = `switchyard_test_${process.pid}_${randomBytes(6).toString('hex')}`;
  // The name is built here from digits and hex only, so quoting it as an identifier is safe.
  await withAdminClient(adminUrl, (client) => client.query(`create database "${name}"`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => withAdminClient(adminUrl, (client) => client.query(`drop database if exists "${name}" with (force)`)),
  };
}

async function withAdminClient(adminUrl: string, work: (client: pg.Client) => Promise<unknown>): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end();
  }
}
