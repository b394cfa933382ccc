#!/usr/bin/env node
// The console's data at a million ledger entries (bench/README.md "Console data at a million
// entries"): writes ENTRIES (1,000,000) realistic entries over DAYS (30) days by KEYS (50) keys into
// a fresh SQLite database — and a fresh PostgreSQL database when BENCH_POSTGRES_URL is set — through
// the storage's own append path (so running spend and rollups fill as in production), in batches of
// BATCH (5,000); prints the plan of every query the console's calls run; starts a gateway from dist/
// on it and times each call the console makes: cold (the first call of a freshly started gateway,
// COLD_REPS times) and warm (REPS times), median and max. Calls over 1 s are marked; nothing is
// asserted. Knobs: ENTRIES, DAYS, KEYS, BATCH, REPS (7), COLD_REPS (3), GATEWAY_PORT (18395),
// SUT_CPU (1), TARGETS (`sqlite postgres`), RESULTS_DIR, SKIP_BUILD, SKIP_GENERATE=1 (reuse the databases of RESULTS_DIR).
// BENCH_POSTGRES_URL names a server: the database `switchyard_console_bench` on it is dropped and made again.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import Database from 'better-sqlite3';
import { ledgerBatches } from './lib/console-ledger.mjs';
import { consoleCalls } from './lib/console-calls.mjs';
import { capturedStatements, explain } from './lib/query-plans.mjs';
import { sleep, startPinned, stop, stopAll, waitHttp } from './lib/processes.mjs';
import { median } from './lib/statistics.mjs';

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const repoDir = path.resolve(benchDir, '..');
const knob = (name, fallback) => process.env[name] ?? fallback;
const settings = {
  entries: Number(knob('ENTRIES', '1000000')),
  days: Number(knob('DAYS', '30')),
  keys: Number(knob('KEYS', '50')),
  batch: Number(knob('BATCH', '5000')),
  reps: Number(knob('REPS', '7')),
  coldReps: Number(knob('COLD_REPS', '3')),
  port: Number(knob('GATEWAY_PORT', '18395')),
  sutCpu: knob('SUT_CPU', '1'),
};
const outDir = path.resolve(knob('RESULTS_DIR', `/tmp/switchyard-bench/console-${new Date().toISOString().replace(/[:.]/g, '-')}`));
fs.mkdirSync(path.join(outDir, 'logs'), { recursive: true });
const log = (line) => console.log(`[console] ${line}`);

if (knob('SKIP_BUILD', '0') !== '1') spawnSync('npm', ['run', 'build', '--silent'], { cwd: repoDir, stdio: 'inherit' });
const dist = (file) => import(path.join(repoDir, 'dist', file));
const { openStorage } = await dist('storage/open-storage.js');
const { apiKeyRecord } = await dist('keys/api-key-record.js');
const { displayPrefix, hashApiKey, mintApiKeySecret } = await dist('keys/api-key-secret.js');

const only = knob('TARGETS', 'sqlite postgres').split(/\s+/);
const targets = only.includes('sqlite') ? [{ name: 'sqlite', url: `sqlite:${path.join(outDir, 'console.db')}` }] : [];
if (process.env.BENCH_POSTGRES_URL && only.includes('postgres')) {
  const server = new URL(process.env.BENCH_POSTGRES_URL);
  const database = new URL(server);
  database.pathname = '/switchyard_console_bench';
  targets.push({ name: 'postgres', url: database.toString(), server: server.toString() });
}

/** A fresh, migrated database with the keys; resolves to its state (the admin secret, the keys, when history ends). */
async function prepare(target) {
  const statePath = path.join(outDir, `${target.name}-state.json`);
  if (knob('SKIP_GENERATE', '0') === '1') return JSON.parse(fs.readFileSync(statePath, 'utf8'));
  if (target.name === 'sqlite') for (const suffix of ['', '-wal', '-shm']) fs.rmSync(path.join(outDir, `console.db${suffix}`), { force: true });
  else {
    const client = new pg.Client({ connectionString: target.server });
    await client.connect();
    await client.query('drop database if exists switchyard_console_bench');
    await client.query('create database switchyard_console_bench');
    await client.end();
  }
  const storage = await openStorage(target.url);
  await storage.migrate();
  const end = Date.now();
  const created = new Date(end - (settings.days + 1) * 86_400_000);
  const keyIds = Array.from({ length: settings.keys }, (_, index) => `key_bench${String(index).padStart(4, '0')}`);
  for (const [index, id] of keyIds.entries()) {
    const secret = mintApiKeySecret();
    await storage.keys.insert(apiKeyRecord({ id, name: `team-${index}`, prefix: displayPrefix(secret), hash: hashApiKey(secret), createdAt: created }));
  }
  const adminSecret = mintApiKeySecret();
  await storage.keys.insert(apiKeyRecord({ id: 'key_benchadmin', name: 'console', admin: true, prefix: displayPrefix(adminSecret), hash: hashApiKey(adminSecret), createdAt: created }));
  // Cursors deep in history for the paging calls: the first entry of the second day, overall and of the quietest key.
  const deepAfter = end - (settings.days - 1) * 86_400_000;
  const quietKey = keyIds.at(-1);
  const state = { adminSecret, keyIds, busyKey: keyIds[0], quietKey, end, deep: null, deepQuiet: null };
  const started = performance.now();
  let written = 0;
  let lastBatchesMs = 0;
  for (const batch of ledgerBatches({ total: settings.entries, days: settings.days, keyIds, end, batchSize: settings.batch })) {
    state.deep ??= cursorAfter(batch, deepAfter, () => true);
    state.deepQuiet ??= cursorAfter(batch, deepAfter, (entry) => entry.keyId === quietKey);
    const batchStarted = performance.now();
    written += await storage.ledger.appendMany(batch);
    if (written > settings.entries * 0.9) lastBatchesMs += performance.now() - batchStarted;
    if (written % 100_000 < settings.batch) log(`${target.name}: ${written} entries, ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  state.generation = { entries: written, seconds: Number(((performance.now() - started) / 1000).toFixed(1)), lastTenthEntriesPerSecond: Math.round((settings.entries * 0.1) / (lastBatchesMs / 1000)) };
  await storage.close();
  fs.writeFileSync(statePath, JSON.stringify(state));
  return state;
}

function cursorAfter(batch, time, matches) {
  const entry = batch.find((candidate) => candidate.createdAt.getTime() >= time && matches(candidate));
  return entry === undefined ? null : Buffer.from(JSON.stringify([entry.createdAt.getTime(), entry.requestId])).toString('base64url');
}

async function databaseSize(target) {
  if (target.name === 'sqlite') {
    return ['', '-wal'].reduce((sum, suffix) => sum + (fs.statSync(path.join(outDir, `console.db${suffix}`), { throwIfNoEntry: false })?.size ?? 0), 0);
  }
  const client = new pg.Client({ connectionString: target.url });
  await client.connect();
  const { rows } = await client.query('select pg_database_size(current_database()) as size');
  await client.end();
  return Number(rows[0].size);
}

/** Every console call's statements and their plans, printed and returned. */
async function plans(target, calls) {
  const storage = await openStorage(target.url);
  const connection = target.name === 'sqlite' ? new Database(path.join(outDir, 'console.db'), { readonly: true }) : new pg.Client({ connectionString: target.url });
  if (target.name === 'postgres') await connection.connect();
  const found = [];
  try {
    for (const call of calls) {
      const seen = new Set();
      for (const statement of await capturedStatements(target.name, () => call.read(storage))) {
        // The keys list reads each key's spend with the same statement: one plan is enough.
        if (seen.has(statement.sql)) continue;
        seen.add(statement.sql);
        const plan = await explain(target.name, connection, statement);
        found.push({ call: call.name, sql: statement.sql, ...plan });
        log(`${target.name} plan, ${call.name}${plan.scansLedger ? ' — SCANS THE LEDGER' : ''}:\n    ${statement.sql}\n    ${plan.lines.join('\n    ')}`);
      }
    }
  } finally {
    await storage.close();
    if (target.name === 'sqlite') connection.close();
    else await connection.end();
  }
  return found;
}

async function startGateway(target, label) {
  const gateway = startPinned(`gateway-${target.name}`, settings.sutCpu, 'node', [path.join(repoDir, 'bin', 'switchyard.js'), 'serve', '--config', path.join(benchDir, 'switchyard-bench.yaml'), '--port', String(settings.port)],
    { DATABASE_URL: target.url, UPSTREAM_OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', UPSTREAM_ANTHROPIC_BASE_URL: 'http://127.0.0.1:9' }, path.join(outDir, 'logs', `gateway-${target.name}.log`));
  if (!(await waitHttp(`http://127.0.0.1:${settings.port}/health`, 30_000, gateway))) throw new Error(`the gateway on ${target.name} did not start (${label})`);
  return gateway;
}

async function timeCall(call, adminSecret) {
  const started = performance.now();
  const response = await fetch(`http://127.0.0.1:${settings.port}${call.path}`, { headers: { authorization: `Bearer ${adminSecret}` } });
  const body = await response.text();
  const ms = performance.now() - started;
  if (response.status !== 200) throw new Error(`${call.name}: ${response.status} ${body.slice(0, 300)}`);
  return { ms, bytes: body.length, items: JSON.parse(body).data?.length };
}

const results = { settings, machine: machine(), targets: {} };
try {
  for (const target of targets) {
    const state = await prepare(target);
    const size = await databaseSize(target);
    log(`${target.name}: ${state.generation.entries} entries in ${state.generation.seconds} s (last tenth ${state.generation.lastTenthEntriesPerSecond}/s); database ${(size / 1e6).toFixed(0)} MB`);
    const calls = consoleCalls(state);
    const planned = await plans(target, calls);
    const timed = Object.fromEntries(calls.map((call) => [call.name, { cold: [], warm: [] }]));
    // Cold: the first call a freshly started gateway answers (the database's own cache stays as the OS and server keep it).
    for (let rep = 0; rep < settings.coldReps; rep += 1) {
      for (const call of calls) {
        const gateway = await startGateway(target, 'cold');
        timed[call.name].cold.push(await timeCall(call, state.adminSecret));
        await stop(gateway);
      }
    }
    const gateway = await startGateway(target, 'warm');
    // One pass untimed: what loads on first use (Kysely, each endpoint's code) is the cold figure's business.
    for (const call of calls) await timeCall(call, state.adminSecret);
    for (let rep = 0; rep < settings.reps; rep += 1) for (const call of calls) timed[call.name].warm.push(await timeCall(call, state.adminSecret));
    await stop(gateway);
    const rows = calls.map((call) => {
      const { cold, warm } = timed[call.name];
      const figures = { cold_median_ms: median(cold.map((run) => run.ms)), cold_max_ms: Math.max(...cold.map((run) => run.ms)), warm_median_ms: median(warm.map((run) => run.ms)), warm_max_ms: Math.max(...warm.map((run) => run.ms)) };
      const slow = Object.values(figures).some((ms) => ms > 1000);
      return { call: call.name, path: call.path, ...Object.fromEntries(Object.entries(figures).map(([name, ms]) => [name, Number(ms.toFixed(1))])), items: warm[0]?.items, bytes: warm[0]?.bytes, slow, scansLedger: planned.some((plan) => plan.call === call.name && plan.scansLedger) };
    });
    results.targets[target.name] = { generation: state.generation, databaseBytes: size, rows, plans: planned };
    printTable(target.name, state, size, rows);
    await sleep(200);
  }
} finally {
  await stopAll();
  fs.writeFileSync(path.join(outDir, 'results.json'), JSON.stringify(results, null, 1));
  log(`results → ${outDir}/results.json`);
}

function printTable(name, state, size, rows) {
  const lines = [
    `\n${name}: ${state.generation.entries.toLocaleString('en')} entries written in ${state.generation.seconds} s (${Math.round(state.generation.entries / state.generation.seconds).toLocaleString('en')}/s; last tenth ${state.generation.lastTenthEntriesPerSecond.toLocaleString('en')}/s), database ${(size / 1e6).toFixed(0)} MB`,
    '',
    '| call | cold median / max ms | warm median / max ms | items | bytes | |',
    '|---|---:|---:|---:|---:|---|',
    ...rows.map((row) => `| ${row.call} | ${row.cold_median_ms} / ${row.cold_max_ms} | ${row.warm_median_ms} / ${row.warm_max_ms} | ${row.items ?? ''} | ${row.bytes} | ${[row.slow ? '**over 1 s**' : '', row.scansLedger ? '**scans the ledger**' : ''].join(' ').trim()} |`),
  ];
  console.log(lines.join('\n'));
}

function machine() {
  const cpus = fs.readFileSync('/proc/cpuinfo', 'utf8').match(/model name\s*:\s*(.*)/g)?.map((line) => line.split(':')[1].trim()) ?? [];
  return { cpus: `${cpus.length} × ${cpus[0]}`, node: process.version, load: fs.readFileSync('/proc/loadavg', 'utf8').trim(), commit: spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repoDir, encoding: 'utf8' }).stdout.trim() };
}
