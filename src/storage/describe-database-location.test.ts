import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeDatabaseLocation } from './describe-database-location.js';

describe('describeDatabaseLocation', () => {
  it('shows a SQLite file as an absolute path, whatever directory the gateway started in', () => {
    expect(describeDatabaseLocation('sqlite:./data/switchyard.db')).toBe(`SQLite ${path.resolve('data/switchyard.db')}`);
    expect(describeDatabaseLocation('sqlite:///var/lib/switchyard.db')).toBe('SQLite /var/lib/switchyard.db');
    expect(describeDatabaseLocation('sqlite::memory:')).toBe('SQLite in memory');
  });

  it('hides a PostgreSQL password, in the authority or as a parameter', () => {
    expect(describeDatabaseLocation('postgres://gateway:s3cret@db.internal:5432/switchyard')).toBe('PostgreSQL postgres://gateway:***@db.internal:5432/switchyard');
    expect(describeDatabaseLocation('postgresql://db/switchyard?user=gateway&password=s3cret')).toBe('PostgreSQL postgresql://db/switchyard?user=gateway&password=***');
    expect(describeDatabaseLocation('postgres://gateway@db/switchyard')).toBe('PostgreSQL postgres://gateway@db/switchyard');
  });
});

describe('describeDatabaseLocation with secrets in the query', () => {
  it('hides sslpassword and any other parameter naming a password, secret or token', () => {
    expect(describeDatabaseLocation('postgres://gateway@db/switchyard?sslmode=verify-full&sslpassword=key-phrase&application_name=gw')).toBe(
      'PostgreSQL postgres://gateway@db/switchyard?sslmode=verify-full&sslpassword=***&application_name=gw',
    );
    expect(describeDatabaseLocation('postgres://db/switchyard?PASSWORD=a&client_secret=b&auth_token=c')).toBe('PostgreSQL postgres://db/switchyard?PASSWORD=***&client_secret=***&auth_token=***');
  });

  it('hides the user part and every secret parameter of a URL it cannot parse', () => {
    const shown = describeDatabaseLocation('postgres://gateway:hunter2@db:not-a-port/x?sslpassword=keyphrase&application_name=gw');
    expect(shown).toBe('PostgreSQL postgres://***@db:not-a-port/x?sslpassword=***&application_name=gw');
  });
});
