#!/usr/bin/env node
// Limits on the hot path (bench/README.md "Limits and budgets on the hot path"): chat passthrough at
// 64 connections, alternating between a key with no limits and a key with an rpm, a tpm, a
// concurrency limit and three budgets (set high enough never to refuse), in the same run and the
// same gateway process; with MODES="memory redis" (the default) a second gateway keeps its limits
// and budgets in a throwaway redis-server, measured in the same run, interleaved. Reports requests
// per second and the gateway's CPU µs per request for each, and the ratios. Knobs: DURATION (8 s),
// WARMUP (3 s), REPS (3), CONCURRENCY (64), MODES, LIMITED_FLAGS (the limited key's `keys create` flags), SKIP_BUILD.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chatBody } from './lib/bodies.mjs';
import { runPinned, sleep, startPinned, stopAll, waitHttp, watchProcess } from './lib/processes.mjs';
import { chatModel } from './lib/scenarios.mjs';

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const repoDir = path.resolve(benchDir, '..');
const knob = (name, fallback) => process.env[name] ?? fallback;
const settings = {
  duration: Number(knob('DURATION', '8')),
  warmup: Number(knob('WARMUP', '3')),
  reps: Number(knob('REPS', '3')),
  connections: Number(knob('CONCURRENCY', '64')),
  upstreamPort: Number(knob('UPSTREAM_PORT', '18191')),
  gatewayPort: Number(knob('GATEWAY_PORT', '18195')),
  loadgenCpu: knob('LOADGEN_CPU', '0'),
  sutCpu: knob('SUT_CPU', '1'),
  modes: knob('MODES', 'memory redis').split(/\s+/).filter(Boolean),
  redisPort: Number(knob('REDIS_PORT', '18197')),
};
const outDir = path.resolve(knob('RESULTS_DIR', `/tmp/switchyard-bench/limits-${new Date().toISOString().replace(/[:.]/g, '-')}`));
fs.mkdirSync(path.join(outDir, 'logs'), { recursive: true });
const log = (line) => console.log(`[limits] ${line}`);

if (knob('SKIP_BUILD', '0') !== '1') spawnSync('npm', ['run', 'build', '--silent'], { cwd: repoDir, stdio: 'inherit' });
const cli = path.join(repoDir, 'bin', 'switchyard.js');
const config = path.join(benchDir, 'switchyard-bench.yaml');
const upstreamUrl = `http://127.0.0.1:${settings.upstreamPort}`;
const env = { UPSTREAM_OPENAI_BASE_URL: `${upstreamUrl}/v1`, UPSTREAM_ANTHROPIC_BASE_URL: upstreamUrl, DATABASE_URL: `sqlite:${path.join(outDir, 'ledger.db')}` };
const redisUrl = `redis://127.0.0.1:${settings.redisPort}`;

function createKey(name, flags) {
  const created = spawnSync('node', [cli, 'keys', 'create', '--name', name, '--json', '--config', config, ...flags], { env: { ...process.env, ...env }, encoding: 'utf8' });
  if (created.status !== 0) throw new Error(`keys create failed: ${created.stderr || created.stdout}`);
  const key = JSON.parse(created.stdout.trim().split('\n').pop() ?? '{}').key;
  if (!key) throw new Error(`keys create failed: ${created.stderr || created.stdout}`);
  return key;
}

const bodyFile = path.join(outDir, 'chat.json');
fs.writeFileSync(bodyFile, chatBody(chatModel, false));
const headerFiles = {};
const keys = {
  unlimited: createKey('bench-unlimited', []),
  // Limits far above what the run can reach: every call pays for the checks, none is refused.
  limited: createKey('bench-limited', (process.env.LIMITED_FLAGS ?? '--rpm 100000000 --tpm 2000000000 --concurrency 10000 --budget-usd 1000000 --daily-budget-usd 1000000 --monthly-budget-usd 1000000').split(/\s+/).filter(Boolean)),
};
for (const [name, key] of Object.entries(keys)) {
  headerFiles[name] = path.join(outDir, `${name}.headers`);
  fs.writeFileSync(headerFiles[name], `authorization: Bearer ${key}\n`);
}

const results = { settings, runs: [] };
try {
  const upstream = startPinned('upstream', settings.loadgenCpu, 'node', [path.join(benchDir, 'fake-upstream.mjs')], { UPSTREAM_PORT: String(settings.upstreamPort) }, path.join(outDir, 'logs', 'upstream.log'));
  if (!(await waitHttp(`${upstreamUrl}/health`, 10_000, upstream))) throw new Error('the fake upstream did not start');
  if (settings.modes.includes('redis')) {
    // On the load generators' core: Redis is the gateway's neighbour, not part of it.
    startPinned('redis', settings.loadgenCpu, 'redis-server', ['--port', String(settings.redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {}, path.join(outDir, 'logs', 'redis.log'));
    await sleep(500);
  }
  const gateways = {};
  for (const [index, mode] of settings.modes.entries()) {
    const port = settings.gatewayPort + index * 10;
    const gatewayEnv = mode === 'redis' ? { ...env, REDIS_URL: redisUrl } : env;
    const gateway = startPinned(`gateway-${mode}`, settings.sutCpu, 'node', [cli, 'serve', '--config', config, '--port', String(port)], gatewayEnv, path.join(outDir, 'logs', `gateway-${mode}.log`));
    if (!(await waitHttp(`http://127.0.0.1:${port}/health`, 30_000, gateway))) throw new Error(`the ${mode} gateway did not start`);
    gateways[mode] = { process: gateway, url: `http://127.0.0.1:${port}/v1/chat/completions` };
  }
  const run = async (mode, name, seconds) => {
    const { process: gateway, url } = gateways[mode];
    const watcher = watchProcess(gateway.pid, 200);
    const output = await runPinned(settings.loadgenCpu, 'wrk', ['-t1', `-c${settings.connections}`, `-d${seconds}s`, '--timeout', '10s', '-s', path.join(benchDir, 'lib', 'wrk-post.lua'), url],
      { BENCH_BODY_FILE: bodyFile, BENCH_HEADERS_FILE: headerFiles[name] }, (seconds + 30) * 1000);
    const watched = watcher.stop();
    const errors = ['err_connect', 'err_read', 'err_write', 'err_status', 'err_timeout'].reduce((sum, field) => sum + (Number(output[field]) || 0), 0);
    return { mode, key: name, rps: output.rps, p50_us: output.lat_p50_us, p99_us: output.lat_p99_us, errors, cpu_us_per_request: watched.cpuSeconds && output.requests ? Math.round((watched.cpuSeconds * 1e6) / output.requests) : null };
  };
  for (const mode of settings.modes) for (const name of Object.keys(keys)) await run(mode, name, settings.warmup);
  for (let rep = 1; rep <= settings.reps; rep += 1) {
    // Alternate which goes first, so drift over the run hits every pair alike.
    const names = rep % 2 === 1 ? ['unlimited', 'limited'] : ['limited', 'unlimited'];
    for (const mode of rep % 2 === 1 ? settings.modes : [...settings.modes].reverse()) {
      for (const name of names) {
        const measured = { rep, ...(await run(mode, name, settings.duration)) };
        results.runs.push(measured);
        log(`rep${rep} ${mode} ${name}: rps=${measured.rps} p50=${measured.p50_us}µs p99=${measured.p99_us}µs cpu=${measured.cpu_us_per_request}µs/req errors=${measured.errors}`);
        await sleep(300);
      }
    }
  }
  const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const of = (mode, name, field) => median(results.runs.filter((entry) => entry.mode === mode && entry.key === name).map((entry) => entry[field]));
  results.summary = {};
  for (const mode of settings.modes) {
    const summary = {
      unlimited_rps: of(mode, 'unlimited', 'rps'),
      limited_rps: of(mode, 'limited', 'rps'),
      ratio: Number((of(mode, 'limited', 'rps') / of('memory', 'unlimited', 'rps')).toFixed(3)),
      unlimited_cpu_us: of(mode, 'unlimited', 'cpu_us_per_request'),
      limited_cpu_us: of(mode, 'limited', 'cpu_us_per_request'),
      errors: results.runs.filter((entry) => entry.mode === mode).reduce((sum, entry) => sum + entry.errors, 0),
    };
    results.summary[mode] = summary;
    log(`median ${mode}: limited ${summary.limited_rps} rps, unlimited ${summary.unlimited_rps} rps; limited / in-memory unlimited = ${summary.ratio}×; CPU limited ${summary.limited_cpu_us} vs unlimited ${summary.unlimited_cpu_us} µs/request; errors ${summary.errors}`);
  }
} finally {
  await stopAll();
  fs.writeFileSync(path.join(outDir, 'results.json'), JSON.stringify(results, null, 1));
  log(`results → ${outDir}/results.json`);
}
