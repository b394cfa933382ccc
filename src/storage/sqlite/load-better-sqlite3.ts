import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

/**
 * Which better-sqlite3 this process runs, by the name it is installed under.
 *
 * From Node 24.19 on, Node's node_object_wrap.h registers an environment cleanup hook that
 * better-sqlite3 12 removes when a statement is garbage collected, and the process aborts
 * (`Assertion failed: (env) != nullptr`, nodejs/node#65446). better-sqlite3 13 is built on Node-API
 * instead and does not crash, but needs Node 22: its prebuilt binary crashes Node 20 outright
 * (a segmentation fault, which no try/catch can catch), so on Node 20 it is never loaded. 13 is
 * installed beside 12 under an alias, as an optional dependency, so an install where it is missing
 * or its binary does not load for the platform still runs on 12. Both have the same API, so the
 * rest of the code uses better-sqlite3 12's types.
 */
export type BetterSqlite3Module = 'better-sqlite3' | 'better-sqlite3-13';

/** The first Node major whose Node-API better-sqlite3 13 is built for. */
const firstNodeMajorFor13 = 22;

/**
 * The module to try first on a Node of `nodeVersion` (as `process.versions.node` spells it),
 * given whether the alias of 13 is installed: 13 on Node 22 and later when it is there, else 12.
 */
export function chooseBetterSqlite3(nodeVersion: string, isInstalled: (module: BetterSqlite3Module) => boolean): BetterSqlite3Module {
  const major = Number.parseInt(nodeVersion.replace(/^v/, ''), 10);
  if (Number.isInteger(major) && major >= firstNodeMajorFor13 && isInstalled('better-sqlite3-13')) return 'better-sqlite3-13';
  return 'better-sqlite3';
}

export interface LoadedBetterSqlite3 {
  readonly module: BetterSqlite3Module;
  readonly Database: typeof BetterSqlite3;
}

const require = createRequire(import.meta.url);
let loaded: LoadedBetterSqlite3 | undefined;

function isInstalled(module: BetterSqlite3Module): boolean {
  try {
    require.resolve(module);
    return true;
  } catch {
    return false;
  }
}

/**
 * 13 is tried by opening a database in memory, since its native binary is only loaded then: a
 * platform it has no prebuilt binary for fails there, and this process falls back to 12.
 */
function loadsAndOpens(module: BetterSqlite3Module): typeof BetterSqlite3 | undefined {
  try {
    const Database = require(module) as typeof BetterSqlite3;
    new Database(':memory:').close();
    return Database;
  } catch {
    return undefined;
  }
}

/** The better-sqlite3 this process uses, chosen once. */
export function loadBetterSqlite3(): LoadedBetterSqlite3 {
  if (loaded !== undefined) return loaded;
  const chosen = chooseBetterSqlite3(process.versions.node, isInstalled);
  const Database = chosen === 'better-sqlite3-13' ? loadsAndOpens(chosen) : undefined;
  loaded = Database !== undefined ? { module: chosen, Database } : { module: 'better-sqlite3', Database: require('better-sqlite3') as typeof BetterSqlite3 };
  return loaded;
}
