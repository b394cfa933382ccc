#!/usr/bin/env node
// Limits on the hot path (bench/README.md "Limits and budgets on the hot path"): chat passthrough at
// 64 connections through one gateway process, a key with no limits beside a limited key (an rpm, a
// tpm, a concurrency limit and a budget, set high enough never to refuse) and a control key that is
// as unlimited as the first. Every repetition runs each key for DURATION seconds, back to back, in a
// rotating order; a key's ratio to the unlimited key of the same repetition cancels the machine's
// drift, and the control's ratio shows how far from 1.00 the noise alone reaches. With
// MODES="memory redis" (the default) a second gateway keeps its limits and budgets in a throwaway
// redis-server, measured in the same run. Reports requests per second, the gateway's CPU µs per
// request, and the ratios. Knobs: DURATION (1 s), WARMUP (3 s), REPS (40), CONCURRENCY (64), MODES
// (`memory`, `redis`, or `memory@/path/to/bin/switchyard.js` for another build in the same run),
// VARIANTS (`name=keys-create flags;…`), LIMITED_FLAGS (the limited key's flags), GATEWAY_CLI, SKIP_BUILD,
// KEEP_LEDGER=1 (keep the run's ledger, removed by default: about 0.8 GB at 100 × 1 s).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chatBody } from './lib/bodies.mjs';
import { median, medianInterval, quartiles } from './lib/statistics.mjs';
import { removeLedgerUnlessKept } from './lib/ledger-files.mjs';
import { pairedCpuAdded, pairedRatios, runsOf } from './lib/paired-runs.mjs';
import { runPinned, sleep, startPinned, stopAll, waitHttp, watchProcess } from './lib/processes.mjs';
import { chatModel } from './lib/scenarios.mjs';

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const repoDir = path.resolve(benchDir, '..');
const knob = (name, fallback) => process.env[name] ?? fallback;
const settings = {
  duration: Number(knob('DURATION', '1')),
  warmup: Number(knob('WARMUP', '3')),
  reps: Number(knob('REPS', '40')),
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
// GATEWAY_CLI: another build to measure (a patched copy, say); keys are created with it too.
const cli = path.resolve(knob('GATEWAY_CLI', path.join(repoDir, 'bin', 'switchyard.js')));
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
// The limited key by default: an rpm, a tpm, a concurrency limit and a budget, set far above what the
// run can reach, so every call pays for the checks and none is refused. VARIANTS measures several
// keys in the same run (`name=flags;name=flags`), each against the unlimited key beside it.
const limitedKeyFlags = '--rpm 100000000 --tpm 2000000000 --concurrency 10000 --budget-usd 1000000';
const variants = (process.env.VARIANTS ?? `limited=${process.env.LIMITED_FLAGS ?? limitedKeyFlags};control=`)
  .split(';')
  .map((variant) => variant.trim())
  .filter(Boolean)
  .map((variant) => {
    const [name, ...flags] = variant.split('=');
    return { name: name.trim(), flags: flags.join('=').split(/\s+/).filter(Boolean) };
  });
const keys = { unlimited: createKey('bench-unlimited', []) };
for (const variant of variants) keys[variant.name] = createKey(`bench-${variant.name}`, variant.flags);
for (const [name, key] of Object.entries(keys)) {
  headerFiles[name] = path.join(outDir, `${name}.headers`);
  fs.writeFileSync(headerFiles[name], `authorization: Bearer ${key}\n`);
}

// The commit checked out (with `+changes` when the work tree differs from it; dist/ is built from it
// unless SKIP_BUILD=1 reuses an older one), so that runs read together (bench/limits-pooled.mjs)
// can be seen to be of one build. Another build (`memory@…`) is named by its path in its runs.
const head = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repoDir, encoding: 'utf8' }).stdout.trim();
const changed = spawnSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: repoDir, encoding: 'utf8' }).stdout.trim() !== '';
const results = { settings, build: head === '' ? 'unknown' : `${head}${changed ? '+changes' : ''}`, runs: [] };
try {
  const upstream = startPinned('upstream', settings.loadgenCpu, 'node', [path.join(benchDir, 'fake-upstream.mjs')], { UPSTREAM_PORT: String(settings.upstreamPort) }, path.join(outDir, 'logs', 'upstream.log'));
  if (!(await waitHttp(`${upstreamUrl}/health`, 10_000, upstream))) throw new Error('the fake upstream did not start');
  if (settings.modes.some((mode) => mode.startsWith('redis'))) {
    // On the load generators' core: Redis is the gateway's neighbour, not part of it.
    startPinned('redis', settings.loadgenCpu, 'redis-server', ['--port', String(settings.redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {}, path.join(outDir, 'logs', 'redis.log'));
    await sleep(500);
  }
  const gateways = {};
  for (const [index, mode] of settings.modes.entries()) {
    const port = settings.gatewayPort + index * 10;
    // `memory@/path/to/bin/switchyard.js`: that build, measured beside the others in the same run.
    const [kind, build = cli] = mode.split('@');
    const gatewayEnv = kind === 'redis' ? { ...env, REDIS_URL: redisUrl } : env;
    const gateway = startPinned(`gateway-${index}`, settings.sutCpu, 'node', [build, 'serve', '--config', config, '--port', String(port)], gatewayEnv, path.join(outDir, 'logs', `gateway-${index}.log`));
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
  const names = Object.keys(keys);
  for (let rep = 1; rep <= settings.reps; rep += 1) {
    // Rotate which key goes first, so drift over the run hits every key alike. Keys outside, builds
    // inside: a gateway that has sat idle while the others ran is slower for its first second (most
    // likely the memory it gave back while idle), and with builds outside, the same key of a build
    // would always be that first second; this way every key of every build follows the same pause.
    const order = names.map((_, index) => names[(index + rep - 1) % names.length]);
    for (const name of order) {
      for (const mode of rep % 2 === 1 ? settings.modes : [...settings.modes].reverse()) {
        const measured = { rep, ...(await run(mode, name, settings.duration)) };
        results.runs.push(measured);
        log(`rep${rep} ${mode} ${name}: rps=${measured.rps} p50=${measured.p50_us}µs p99=${measured.p99_us}µs cpu=${measured.cpu_us_per_request}µs/req errors=${measured.errors}`);
        await sleep(300);
      }
    }
  }
  const of = (mode, name, field) => median(runsOf(results.runs, mode, name).map((entry) => entry[field]));
  results.summary = {};
  for (const mode of settings.modes) {
    results.summary[mode] = {};
    for (const { name } of variants) {
      const ratios = pairedRatios(results.runs, mode, name);
      const summary = {
        unlimited_rps: of(mode, 'unlimited', 'rps'),
        key_rps: of(mode, name, 'rps'),
        ratio_of_medians: Number((of(mode, name, 'rps') / of('memory', 'unlimited', 'rps')).toFixed(3)),
        paired_ratio_median: Number(median(ratios).toFixed(3)),
        paired_ratio_quartiles: quartiles(ratios).map((quartile) => Number(quartile.toFixed(3))),
        // How far the median itself can move with this many repetitions (bootstrap, 95 %).
        paired_ratio_median_interval: medianInterval(ratios).map((bound) => Number(bound.toFixed(3))),
        cpu_us_added_paired_median: median(pairedCpuAdded(results.runs, mode, name)) ?? null,
        unlimited_cpu_us: of(mode, 'unlimited', 'cpu_us_per_request'),
        key_cpu_us: of(mode, name, 'cpu_us_per_request'),
        errors: runsOf(results.runs, mode, name).reduce((sum, entry) => sum + entry.errors, 0),
      };
      results.summary[mode][name] = summary;
      log(
        `${mode} ${name}: ${summary.key_rps} vs unlimited ${summary.unlimited_rps} rps (medians; ${summary.ratio_of_medians}× of in-memory unlimited); ` +
          `paired ratio median ${summary.paired_ratio_median}× (95 % ${summary.paired_ratio_median_interval.join('–')}; quartiles ${summary.paired_ratio_quartiles.join('–')}); ` +
          `CPU ${summary.key_cpu_us} vs ${summary.unlimited_cpu_us} µs/request (${summary.cpu_us_added_paired_median >= 0 ? '+' : ''}${summary.cpu_us_added_paired_median} paired); errors ${summary.errors}`,
      );
    }
  }
} finally {
  await stopAll();
  removeLedgerUnlessKept(outDir);
  fs.writeFileSync(path.join(outDir, 'results.json'), JSON.stringify(results, null, 1));
  log(`results → ${outDir}/results.json`);
}
