import { describe, expect, it } from 'vitest';
import { parseDatabaseUrl } from './parse-database-url.js';

describe('parseDatabaseUrl', () => {
  it.each([
    ['sqlite:./data/x.db', './data/x.db'],
    ['sqlite:/var/lib/switchyard/x.db', '/var/lib/switchyard/x.db'],
    ['sqlite:///var/lib/switchyard/x.db', '/var/lib/switchyard/x.db'],
    ['sqlite::memory:', ':memory:'],
  ])('reads %s as the SQLite file %s', (url, filename) => {
    expect(parseDatabaseUrl(url)).toEqual({ dialect: 'sqlite', filename });
  });

  it.each(['postgres://user@127.0.0.1:5432/db', 'postgresql://user:secret@db.internal/switchyard?sslmode=require'])(
    'passes %s to PostgreSQL unchanged',
    (url) => {
      expect(parseDatabaseUrl(url)).toEqual({ dialect: 'postgres', connectionString: url });
    },
  );

  it('rejects an unknown scheme, naming it', () => {
    expect(() => parseDatabaseUrl('mysql://localhost/db')).toThrow(/"mysql"/);
  });

  it('rejects a SQLite URL without a file', () => {
    expect(() => parseDatabaseUrl('sqlite:')).toThrow(/names no file/);
  });
});
