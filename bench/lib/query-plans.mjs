// The query plans of the console's reads on a filled database (bench/console-scale.mjs): the
// storage from dist/ answers the same calls the admin endpoints make, every SQL statement it runs
// is captured at the driver (better-sqlite3's prepare, pg's Client#query), and each SELECT is then
// explained on the same database — EXPLAIN QUERY PLAN on SQLite, EXPLAIN (ANALYZE) on PostgreSQL.
// A plan that reads the ledger without an index (SQLite `SCAN usage_ledger`, PostgreSQL
// `Seq Scan on usage_ledger`) is flagged.
import Database from 'better-sqlite3';
import pg from 'pg';

/** Runs `read` with every statement captured; resolves to [{ sql, parameters }] of its SELECTs. */
export async function capturedStatements(dialect, read) {
  const captured = [];
  let restore;
  if (dialect === 'sqlite') {
    const prepare = Database.prototype.prepare;
    Database.prototype.prepare = function capture(sql) {
      const statement = prepare.call(this, sql);
      if (!/^\s*select/i.test(sql)) return statement;
      // Parameters are seen when the statement runs; wrap the read methods Kysely and the stores use.
      for (const method of ['all', 'get', 'iterate']) {
        const original = statement[method].bind(statement);
        statement[method] = (...parameters) => {
          captured.push({ sql, parameters: parameters.flat() });
          return original(...parameters);
        };
      }
      return statement;
    };
    restore = () => (Database.prototype.prepare = prepare);
  } else {
    const query = pg.Client.prototype.query;
    pg.Client.prototype.query = function capture(text, values, ...rest) {
      if (typeof text === 'string' && /^\s*select/i.test(text)) captured.push({ sql: text, parameters: values ?? [] });
      return query.call(this, text, values, ...rest);
    };
    restore = () => (pg.Client.prototype.query = query);
  }
  try {
    await read();
  } finally {
    restore();
  }
  return captured;
}

/** The plan of one captured statement, as lines, and whether it scans the ledger without an index. */
export async function explain(dialect, connection, { sql, parameters }) {
  if (dialect === 'sqlite') {
    const rows = connection.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...parameters.map(sqliteValue));
    const lines = rows.map((row) => row.detail);
    return { lines, scansLedger: lines.some((line) => /^SCAN usage_ledger\b(?! USING (COVERING )?INDEX)/.test(line)) };
  }
  const result = await connection.query(`EXPLAIN (ANALYZE, BUFFERS, TIMING OFF) ${sql}`, parameters);
  const lines = result.rows.map((row) => row['QUERY PLAN']);
  return { lines, scansLedger: lines.some((line) => /Seq Scan on usage_ledger/.test(line)) };
}

function sqliteValue(value) {
  if (typeof value === 'boolean') return value ? 1 : 0;
  return value;
}
