#!/usr/bin/env node
/**
 * The whole test suite: vitest over every unit, contract and end-to-end test, next to a throwaway
 * PostgreSQL so the storage contract runs against both SQLite and PostgreSQL. Ends with one plain
 * `N passed, N failed, N skipped` line.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const vitest = path.join(root, 'node_modules', '.bin', 'vitest');
const reportDirectory = path.join(root, '.tmp');
const report = path.join(reportDirectory, 'vitest-report.json');
mkdirSync(reportDirectory, { recursive: true });
rmSync(report, { force: true });

const result = spawnSync(
  process.execPath,
  [
    path.join(root, 'scripts', 'with-postgres.js'),
    vitest,
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
    ...process.argv.slice(2),
  ],
  { cwd: root, stdio: 'inherit' },
);

try {
  const summary = JSON.parse(readFileSync(report, 'utf8'));
  const skipped = summary.numPendingTests + summary.numTodoTests;
  console.log(`${summary.numPassedTests} passed, ${summary.numFailedTests} failed, ${skipped} skipped`);
} catch {
  console.log('the test run wrote no report');
}
process.exit(result.status ?? 1);
