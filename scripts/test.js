#!/usr/bin/env node
/**
 * The whole test suite: vitest over every unit, contract and end-to-end test, next to a throwaway
 * PostgreSQL (so the storage contract runs against both SQLite and PostgreSQL) and a throwaway
 * Redis (so the limits and budgets contracts run against memory and Redis). Ends with one plain
 * `N passed, N failed, N skipped` line.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const vitest = path.join(root, 'node_modules', '.bin', 'vitest');
const reportDirectory = path.join(root, '.tmp');
const report = path.join(reportDirectory, 'vitest-report.json');
mkdirSync(reportDirectory, { recursive: true });
rmSync(report, { force: true });

// Claude Code and Codex CLI drive end-to-end tests; install them once, before the test files run
// in parallel (test/support/agent-clients.ts installs them on demand for a single file too).
const agentPrefix = path.join(reportDirectory, 'agent-clients');
if (!existsSync(path.join(agentPrefix, 'node_modules', '.bin', 'claude')) || !existsSync(path.join(agentPrefix, 'node_modules', '.bin', 'codex'))) {
  console.log('installing Claude Code and Codex CLI from npm into .tmp/agent-clients');
  const install = spawnSync(
    'npm',
    ['install', '--no-audit', '--no-fund', '--no-save', '--prefix', agentPrefix, '@anthropic-ai/claude-code@2.1.330', '@openai/codex@0.169.0'],
    { cwd: root, stdio: 'inherit' },
  );
  if (install.status !== 0) process.exit(install.status ?? 1);
}

const result = spawnSync(
  process.execPath,
  [
    path.join(root, 'scripts', 'with-postgres.js'),
    process.execPath,
    path.join(root, 'scripts', 'with-redis.js'),
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
