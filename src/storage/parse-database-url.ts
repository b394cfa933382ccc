export type DatabaseLocation =
  | { readonly dialect: 'sqlite'; readonly filename: string }
  | { readonly dialect: 'postgres'; readonly connectionString: string };

export const sqliteMemoryFilename = ':memory:';

/**
 * `sqlite:./data/x.db`, `sqlite:/abs/path`, `sqlite::memory:` (also `sqlite:///abs/path`) for
 * SQLite; `postgres://…` or `postgresql://…` for PostgreSQL.
 */
export function parseDatabaseUrl(databaseUrl: string): DatabaseLocation {
  const url = databaseUrl.trim();
  if (/^postgres(ql)?:\/\//i.test(url)) return { dialect: 'postgres', connectionString: url };
  if (/^sqlite:/i.test(url)) {
    let filename = url.slice('sqlite:'.length);
    // `sqlite:///abs/path` is the URL spelling of an absolute path.
    if (filename.startsWith('//')) filename = filename.slice(2);
    if (filename === '') throw new Error('The SQLite database URL names no file; use e.g. sqlite:./data/switchyard.db.');
    return { dialect: 'sqlite', filename };
  }
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1];
  throw new Error(
    `Unsupported database URL${scheme === undefined ? '' : ` scheme "${scheme}"`}: use sqlite:PATH or postgres://…`,
  );
}
