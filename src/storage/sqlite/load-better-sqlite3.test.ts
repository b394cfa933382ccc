import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { chooseBetterSqlite3, loadBetterSqlite3, type BetterSqlite3Module } from './load-better-sqlite3.js';

const require = createRequire(import.meta.url);
const everythingInstalled = () => true;
const only12Installed = (module: BetterSqlite3Module) => module === 'better-sqlite3';

describe('choosing the better-sqlite3 a Node runs', () => {
  it('keeps better-sqlite3 12 on Node 20 even when 13 is installed, since 13 crashes Node 20', () => {
    expect(chooseBetterSqlite3('20.20.2', everythingInstalled)).toBe('better-sqlite3');
    expect(chooseBetterSqlite3('v20.18.1', everythingInstalled)).toBe('better-sqlite3');
  });

  it('uses better-sqlite3 13 on Node 22 and on every Node 24, the releases from 24.19 on included', () => {
    for (const version of ['22.0.0', '22.22.1', '24.18.0', '24.19.0', '24.21.0', 'v24.21.0', '25.1.0']) {
      expect(chooseBetterSqlite3(version, everythingInstalled), version).toBe('better-sqlite3-13');
    }
  });

  it('falls back to better-sqlite3 12 on Node 22 and 24 when the optional 13 is not installed', () => {
    expect(chooseBetterSqlite3('22.22.1', only12Installed)).toBe('better-sqlite3');
    expect(chooseBetterSqlite3('24.21.0', only12Installed)).toBe('better-sqlite3');
  });
});

describe('the better-sqlite3 this process loads', () => {
  const major = Number.parseInt(process.versions.node, 10);
  const installed13 = (() => {
    try {
      require.resolve('better-sqlite3-13');
      return true;
    } catch {
      return false;
    }
  })();

  it(`is the one chosen for Node ${process.versions.node}, and it runs statements`, () => {
    const loaded = loadBetterSqlite3();
    expect(loaded.module).toBe(major >= 22 && installed13 ? 'better-sqlite3-13' : 'better-sqlite3');
    expect(loaded.Database).toBe(require(loaded.module));
    const version = (require(`${loaded.module}/package.json`) as { version: string }).version;
    expect(version.split('.')[0]).toBe(loaded.module === 'better-sqlite3-13' ? '13' : '12');
    const database = new loaded.Database(':memory:');
    try {
      expect(database.prepare('select 40 + 2 as answer').get()).toEqual({ answer: 42 });
    } finally {
      database.close();
    }
  });

  // With better-sqlite3 12 on Node 24.19 and later, the garbage collector aborts the process (and
  // so this test run) before fifty thousand statements are prepared.
  it('leaves a hundred thousand statements to the garbage collector without aborting the process', async () => {
    const database = new (loadBetterSqlite3().Database)(':memory:');
    try {
      let total = 0;
      for (let statement = 0; statement < 100_000; statement += 1) total += (database.prepare(`select ${statement} as value`).get() as { value: number }).value;
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(total).toBe((99_999 * 100_000) / 2);
    } finally {
      database.close();
    }
  }, 60_000);

  it('is chosen once, so every database of the process uses the same driver', () => {
    expect(loadBetterSqlite3()).toBe(loadBetterSqlite3());
  });
});
