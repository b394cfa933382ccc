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
