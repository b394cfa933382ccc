#!/usr/bin/env node
/**
 * The whole test suite: vitest over every unit, contract and end-to-end test, next to a throwaway
 * PostgreSQL so the storage contract runs against both SQLite and PostgreSQL.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const vitest = path.join(root, 'node_modules', '.bin', 'vitest');
const result = spawnSync(
  process.execPath,
  [path.join(root, 'scripts', 'with-postgres.js'), vitest, 'run', ...process.argv.slice(2)],
  { cwd: root, stdio: 'inherit' },
);
process.exit(result.status ?? 1);
