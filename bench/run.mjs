#!/usr/bin/env node
// Switchyard benchmarks: gateway overhead, throughput, streaming and memory. See bench/README.md.
//
//   bench/run.sh                                   # everything (about 30 min: scenarios, 1,000 streams, 10 min soak)
//   SOAK_SECONDS=60 REPS=1 DURATION=5 bench/run.sh # a quick pass (about 10 min)
//   STAGES=scenarios SCENARIOS="chat_c64 chat_c1" bench/run.sh
//
// Pinning: the gateway (and the node proxy) alone on SUT_CPU (1); the load generators, this script
// and the fake upstream on LOADGEN_CPU (0). Every server binds 127.0.0.1; every process started
// here is stopped by PID at the end, including on Ctrl-C.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import os from 'node:os';
import { watchCpus } from './lib/cpu-usage.mjs';
import { cpuSeconds, killAllNow, machineLoad, rssKb, runPinned, sleep, startPinned, stop, stopAll, waitHttp, watchProcess } from './lib/processes.mjs';
import { removeLedgerUnlessKept } from './lib/ledger-files.mjs';
import { runSlowStreams, runSoak } from './lib/long-stages.mjs';
import { buildBodies, scenarios as scenarioTable } from './lib/scenarios.mjs';
import { summarize } from './lib/summarize.mjs';

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const repoDir = path.resolve(benchDir, '..');
const knob = (name, fallback) => (process.env[name] === undefined || process.env[name] === '' ? fallback : process.env[name]);
const number = (name, fallback) => Number(knob(name, fallback));

const settings = {
  duration: number('DURATION', 6),
  warmup: number('WARMUP', 2),
  reps: number('REPS', 2),
  concurrency: number('CONCURRENCY', 64),
  streamConcurrency: number('STREAM_CONCURRENCY', 16),
  streamChunks: number('STREAM_CHUNKS', 50),
  chunkDelayMs: number('CHUNK_DELAY_MS', 2),
  slowStreams: number('SLOW_STREAMS', 1000),
  slowDelayMs: number('SLOW_DELAY_MS', 200),
  soakSeconds: number('SOAK_SECONDS', 600),
  soakPauseSeconds: number('SOAK_PAUSE_SECONDS', 20),
  loadgenCpu: knob('LOADGEN_CPU', '0'),
  upstreamCpu: knob('UPSTREAM_CPU', '0'),
  sutCpu: knob('SUT_CPU', '1'),
  upstreamPort: number('UPSTREAM_PORT', 18191),
  gatewayPort: number('GATEWAY_PORT', 18195),
  nodeProxyPort: number('NODEPROXY_PORT', 18196),
  targets: knob('TARGETS', 'direct nodeproxy gateway').split(/\s+/).filter(Boolean),
  scenarioFilter: knob('SCENARIOS', '').split(/\s+/).filter(Boolean),
  stages: knob('STAGES', 'memory scenarios slow soak').split(/\s+/).filter(Boolean),
  auth: knob('BENCH_AUTH', 'key'),
  gatewayConfig: path.resolve(knob('GATEWAY_CONFIG', path.join(benchDir, 'switchyard-bench.yaml'))),
  gatewayNodeArgs: knob('GATEWAY_NODE_ARGS', '').split(/\s+/).filter(Boolean),
  // Another build of the gateway (e.g. a patched copy, to measure a suggested change) — same CLI.
  idleSettleSeconds: Number(knob('IDLE_SETTLE_SECONDS', '20')),
  soakSettleSeconds: Number(knob('SOAK_SETTLE_SECONDS', '60')),
  gatewayCli: path.resolve(knob('GATEWAY_CLI', path.join(repoDir, 'bin', 'switchyard.js'))),
  nodeProxy: knob('NODE_PROXY', path.join(benchDir, 'lib', 'node-proxy.mjs')),
};
const stamp = new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
const outDir = path.resolve(knob('RESULTS_DIR', `/tmp/switchyard-bench/results/${stamp}`));
for (const folder of ['logs', 'bodies']) fs.mkdirSync(path.join(outDir, folder), { recursive: true });

const log = (message) => {
  const line = `[${new Date().toTimeString().slice(0, 8)}] ${message}`;
  process.stderr.write(line + '\n');
  fs.appendFileSync(path.join(outDir, 'run.log'), line + '\n');
};
process.on('SIGINT', () => {
  log('interrupted');
  killAllNow();
  process.exit(130);
});
process.on('exit', killAllNow);

// ---------------------------------------------------------------- bodies and headers
const bodyFiles = {};
for (const [name, text] of Object.entries(buildBodies(settings.slowDelayMs))) {
  bodyFiles[name] = path.join(outDir, 'bodies', `${name}.json`);
  fs.writeFileSync(bodyFiles[name], text);
}
const upstreamUrl = `http://127.0.0.1:${settings.upstreamPort}`;
const targetUrls = { direct: upstreamUrl, nodeproxy: `http://127.0.0.1:${settings.nodeProxyPort}`, gateway: `http://127.0.0.1:${settings.gatewayPort}` };

function writeHeaders(target, format, key) {
  const file = path.join(outDir, 'bodies', `${target}.${format}.headers`);
  const secret = key ?? (format === 'messages' ? 'sk-ant-bench-fake' : 'sk-bench-fake');
  const lines = format === 'messages' ? [`x-api-key: ${secret}`, 'anthropic-version: 2023-06-01'] : [`authorization: Bearer ${secret}`];
  fs.writeFileSync(file, key === '' ? (format === 'messages' ? 'anthropic-version: 2023-06-01\n' : '') : lines.join('\n') + '\n');
  return file;
}

// ---------------------------------------------------------------- servers
const results = { meta: {}, settings, availability: {}, idle: {}, memory: [], runs: [], slow: [], soak: null };
const processes = {};

/**
 * CPU taken on the whole machine during a measurement by processes that are not ours (servers,
 * load generators, this script), in percent of one core: above ~10 % the figure was taken on a
 * busy machine. Load generators report their own CPU time (runPinned's loadgen_cpu_s).
 */
function watchForeignCpu() {
  const machine = watchCpus(os.cpus().map((_cpu, index) => index));
  const pids = Object.values(processes).map((entry) => entry.pid);
  const serversAtStart = pids.reduce((sum, pid) => sum + (cpuSeconds(pid) ?? 0), 0);
  const selfAtStart = process.cpuUsage();
  return {
    stop(loadgenSeconds) {
      const used = machine.stop();
      const servers = pids.reduce((sum, pid) => sum + (cpuSeconds(pid) ?? 0), 0) - serversAtStart;
      const self = process.cpuUsage(selfAtStart);
      const ours = servers + (self.user + self.system) / 1e6 + (loadgenSeconds ?? 0);
      return used.seconds > 0 ? Number(Math.max(0, ((used.busySeconds - ours) / used.seconds) * 100).toFixed(1)) : null;
    },
  };
}

async function startServers() {
  // A leftover server on one of our ports would silently answer in place of the one we start.
  for (const [name, url] of Object.entries(targetUrls)) {
    if (settings.targets.includes(name) || name === 'direct') {
      const busy = await fetch(`${url}/health`, { signal: AbortSignal.timeout(1000) }).then(() => true, () => false);
      if (busy) throw new Error(`${url} already answers: stop whatever listens there, or set UPSTREAM_PORT / GATEWAY_PORT / NODEPROXY_PORT`);
    }
  }
  const upstream = startPinned('upstream', settings.upstreamCpu, 'node', [path.join(benchDir, 'fake-upstream.mjs')],
    { UPSTREAM_PORT: String(settings.upstreamPort), STREAM_CHUNKS: String(settings.streamChunks), CHUNK_DELAY_MS: String(settings.chunkDelayMs) },
    path.join(outDir, 'logs', 'upstream.log'));
  if (!(await waitHttp(`${upstreamUrl}/health`, 10_000, upstream))) throw new Error('the fake upstream did not start (logs/upstream.log)');
  processes.direct = upstream;

  if (settings.targets.includes('nodeproxy')) {
    if (!fs.existsSync(settings.nodeProxy)) {
      results.availability.nodeproxy = `not available: ${settings.nodeProxy} is missing`;
    } else {
      const proxy = startPinned('nodeproxy', settings.sutCpu, 'node', [settings.nodeProxy],
        { PORT: String(settings.nodeProxyPort), UPSTREAM_URL: upstreamUrl }, path.join(outDir, 'logs', 'nodeproxy.log'));
      if (await waitHttp(`${targetUrls.nodeproxy}/health`, 10_000, proxy)) processes.nodeproxy = proxy;
      else results.availability.nodeproxy = 'not available: node-proxy did not start';
    }
  }

  if (settings.targets.includes('gateway')) {
    const databaseUrl = `sqlite:${path.join(outDir, 'ledger.db')}`;
    const gatewayEnv = { UPSTREAM_OPENAI_BASE_URL: `${upstreamUrl}/v1`, UPSTREAM_ANTHROPIC_BASE_URL: upstreamUrl, DATABASE_URL: databaseUrl };
    const cli = settings.gatewayCli;
    let key = '';
    if (settings.auth === 'key') {
      const created = spawnSync('node', [cli, 'keys', 'create', '--name', 'bench', '--json', '--config', settings.gatewayConfig], {
        env: { ...process.env, ...gatewayEnv }, encoding: 'utf8' });
      key = JSON.parse(created.stdout.trim().split('\n').pop() ?? '{}').key ?? '';
      if (!key) throw new Error(`could not create an API key: ${created.stderr || created.stdout}`);
    }
    for (const format of ['chat', 'messages', 'responses', 'images']) writeHeaders('gateway', format, key);
    const startedAt = Date.now();
    const gateway = startPinned('gateway', settings.sutCpu, 'node',
      [...settings.gatewayNodeArgs, cli, 'serve', '--config', settings.gatewayConfig, '--port', String(settings.gatewayPort)],
      gatewayEnv, path.join(outDir, 'logs', 'gateway.log'));
    if (await waitHttp(`${targetUrls.gateway}/health`, 30_000, gateway)) {
      processes.gateway = gateway;
      results.idle.gateway_startup_ms = Date.now() - startedAt;
    } else {
      results.availability.gateway = `not available: did not start (${fs.readFileSync(path.join(outDir, 'logs', 'gateway.log'), 'utf8').slice(-300)})`;
    }
  }
  for (const target of ['direct', 'nodeproxy']) for (const format of ['chat', 'messages', 'images']) writeHeaders(target, format, undefined);
}

// ---------------------------------------------------------------- availability probes
const endMarkers = { chat: 'data: [DONE]', messages: 'event: message_stop', responses: 'event: response.completed' };
const completionMarkers = { chat: '"chat.completion"', messages: '"type":"message"', responses: '"object":"response"', images: '"b64_json":"iVBORw0KGgo' };
const headerFile = (target, format) => path.join(outDir, 'bodies', `${target}.${format}.headers`);

function headersFrom(file) {
  const headers = { 'content-type': 'application/json' };
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    const match = /^\s*([^:\s]+)\s*:\s*(.*?)\s*$/.exec(line);
    if (match) headers[match[1]] = match[2];
  }
  return headers;
}

/** 'ok', or why this target cannot serve this request today. */
async function probe(target, request) {
  try {
    const body = fs.readFileSync(bodyFiles[request.body]);
    const response = await fetch(targetUrls[target] + request.path, {
      method: 'POST', headers: headersFrom(headerFile(target, request.format)), body, signal: AbortSignal.timeout(15_000) });
    const text = await response.text();
    if (response.status === 404 && !text.includes('model')) return `not available (${request.path} answered 404)`;
    if (response.status !== 200) return `failed: ${response.status} ${text.slice(0, 200)}`;
    const stream = request.body.includes('stream');
    const wanted = stream ? endMarkers[request.format] : completionMarkers[request.format];
    return text.includes(wanted) ? 'ok' : `failed: answer lacks ${wanted}: ${text.slice(0, 200)}`;
  } catch (error) {
    return `failed: ${String(error)}`;
  }
}

// ---------------------------------------------------------------- one measured run
const upstreamHits = async () => (await (await fetch(`${upstreamUrl}/stats`)).json()).requests;

async function measure(target, scenario, seconds) {
  const request = target === 'gateway' ? scenario.gateway : scenario.baseline;
  const url = targetUrls[target] + request.path;
  const monitored = processes[target];
  const watcher = watchProcess(monitored.pid, 200);
  const foreign = watchForeignCpu();
  const load = machineLoad();
  const hitsBefore = await upstreamHits();
  let output;
  if (scenario.tool === 'wrk') {
    output = await runPinned(settings.loadgenCpu, 'wrk',
      ['-t1', `-c${scenario.connections}`, `-d${seconds}s`, '--timeout', '10s', '-s', path.join(benchDir, 'lib', 'wrk-post.lua'), url],
      { BENCH_BODY_FILE: bodyFiles[request.body], BENCH_HEADERS_FILE: headerFile(target, request.format) }, (seconds + 30) * 1000);
  } else {
    output = await runPinned(settings.loadgenCpu, 'node',
      [path.join(benchDir, 'stream-load.mjs'), '--url', url, '--body', bodyFiles[request.body], '--headers', headerFile(target, request.format),
        '--format', request.format, '--concurrency', String(scenario.connections), '--seconds', String(seconds), '--min-events', String(scenario.minEvents ?? 0)],
      {}, (seconds + 60) * 1000);
  }
  const hits = (await upstreamHits()) - hitsBefore;
  const watched = watcher.stop();
  const foreignPercent = foreign.stop(output.loadgen_cpu_s);
  return {
    ...output,
    upstream_hits: hits,
    sut_peak_rss_kb: watched.peakKb,
    sut_cpu_pct: watched.cpuPercent,
    // CPU time of the process under test per completed request: steadier than RPS on a busy machine.
    sut_cpu_us_per_request: watched.cpuSeconds && (output.requests ?? output.streams) ? Math.round((watched.cpuSeconds * 1e6) / (output.requests ?? output.streams)) : null,
    foreign_cpu_pct: foreignPercent,
    loadavg: load,
  };
}

const errorsOf = (run) => ['err_connect', 'err_read', 'err_write', 'err_status', 'err_timeout', 'err_incomplete', 'err_network']
  .reduce((sum, field) => sum + (Number(run[field]) || 0), run.failed ? 1 : 0);

function describe(run) {
  const head = run.ttfb_p50_ms !== undefined
    ? `streams/s=${run.rps} ttfb p50=${run.ttfb_p50_ms}ms total p50=${run.total_p50_ms}ms`
    : `rps=${run.rps} p50=${run.lat_p50_us}µs p99=${run.lat_p99_us}µs`;
  return `${head} errors=${errorsOf(run)} cpu=${run.sut_cpu_pct}% (${run.sut_cpu_us_per_request}µs/req) foreign=${run.foreign_cpu_pct}% rss=${Math.round((run.sut_peak_rss_kb ?? 0) / 1024)}MB hits=${run.upstream_hits}${run.failed ? ' FAILED ' + run.output : ''}${run.first_error ? ' first_error=' + run.first_error : ''}`;
}

// ---------------------------------------------------------------- stages
async function runScenarios() {
  // An opt-in scenario (the 2 MB image answers) runs only when named: its heap growth would change what
  // the later stages (the 1,000 streams, the soak) measure in a default run.
  const all = scenarioTable(settings).filter((scenario) =>
    settings.scenarioFilter.length === 0 ? !scenario.optIn : settings.scenarioFilter.some((word) => word === scenario.name || word === scenario.group));
  const live = settings.targets.filter((target) => processes[target] !== undefined);
  const runnable = [];
  for (const scenario of all) {
    for (const target of live) {
      const request = target === 'gateway' ? scenario.gateway : scenario.baseline;
      const key = `${target} ${request.path} ${request.body}`;
      results.availability[key] ??= await probe(target, request);
      if (results.availability[key] === 'ok') runnable.push({ scenario, target });
      else log(`${scenario.name} on ${target}: ${results.availability[key]}`);
    }
  }
  log(`measuring ${runnable.length} scenario×target pairs, ${settings.duration}s each, ${settings.reps} reps, warmup ${settings.warmup}s`);
  for (const { scenario, target } of runnable) await measure(target, scenario, settings.warmup);
  for (let rep = 1; rep <= settings.reps; rep++) {
    for (const target of live) {
      for (const { scenario } of runnable.filter((pair) => pair.target === target)) {
        const run = await measure(target, scenario, settings.duration);
        results.runs.push({ target, scenario: scenario.name, group: scenario.group, title: scenario.title, tool: scenario.tool, connections: scenario.connections, rep, ...run });
        log(`rep${rep} ${target} ${scenario.name}: ${describe(run)}`);
        await sleep(300);
      }
    }
  }
}

/**
 * RSS at 64 connections, measured on the gateway's first traffic: later in the run the heap also
 * holds what the 500 KB bodies grew it to, which would say nothing about 64 small calls.
 */
async function runMemory() {
  if (!processes.gateway) return;
  const all = scenarioTable(settings);
  for (const name of [`chat_c${settings.concurrency}`, `messages_c${settings.concurrency}`]) {
    const scenario = all.find((entry) => entry.name === name);
    const key = `gateway ${scenario.gateway.path} ${scenario.gateway.body}`;
    results.availability[key] ??= await probe('gateway', scenario.gateway);
    if (results.availability[key] !== 'ok') continue;
    const run = await measure('gateway', scenario, settings.duration);
    results.memory.push({ scenario: name, title: scenario.title, ...run });
    log(`memory ${name}: peak RSS ${Math.round((run.sut_peak_rss_kb ?? 0) / 1024)} MB, ${describe(run)}`);
  }
}

// ---------------------------------------------------------------- main
try {
  const gitHead = spawnSync('git', ['-C', repoDir, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).stdout.trim();
  const gitDirty = spawnSync('git', ['-C', repoDir, 'status', '--porcelain', 'src'], { encoding: 'utf8' }).stdout.trim() !== '';
  results.meta = {
    date: new Date().toISOString(), node: process.version, cpus: (await import('node:os')).cpus().length,
    cpu_model: (await import('node:os')).cpus()[0]?.model, commit: gitHead + (gitDirty ? ' (+ uncommitted changes in src/)' : ''),
    dist_built: fs.statSync(path.join(repoDir, 'dist', 'cli', 'main.js')).mtime.toISOString(),
    wrk: spawnSync('wrk', ['-v'], { encoding: 'utf8' }).stdout.split('\n')[0], loadavg_start: machineLoad(),
    pinning: `gateway and node proxy on cpu ${settings.sutCpu}; load generators, fake upstream and this script on cpu ${settings.loadgenCpu}`,
  };
  log(`results → ${outDir}`);
  log(`machine load at start: ${results.meta.loadavg_start}`);
  await startServers();
  log(`servers up: ${Object.keys(processes).join(', ')}${results.availability.gateway ? ' — gateway ' + results.availability.gateway : ''}`);
  await sleep(2000);
  for (const target of Object.keys(processes)) results.idle[`${target}_fresh_kb`] = rssKb(processes[target].pid);
  // V8 gives back the young generation it grew during start-up only after some seconds of quiet.
  if (settings.idleSettleSeconds > 0) {
    await sleep(settings.idleSettleSeconds * 1000);
    for (const target of Object.keys(processes)) results.idle[`${target}_settled_kb`] = rssKb(processes[target].pid);
  }
  if (settings.stages.includes('memory')) await runMemory();
  if (settings.stages.includes('scenarios')) await runScenarios();
  const bench = { settings, processes, results, probe, bodyFiles, targetUrls, headerFile, watchForeignCpu, log, errorsOf, benchDir };
  if (settings.stages.includes('slow')) await runSlowStreams(bench);
  if (settings.stages.includes('soak')) await runSoak(bench);
  results.meta.loadavg_end = machineLoad();
} catch (error) {
  log(`aborted: ${error instanceof Error ? error.stack : String(error)}`);
  results.aborted = String(error);
} finally {
  if (processes.gateway) await stop(processes.gateway, 15_000);
  await stopAll();
  removeLedgerUnlessKept(outDir);
  fs.writeFileSync(path.join(outDir, 'results.json'), JSON.stringify(results, null, 1));
  const summary = summarize(results);
  fs.writeFileSync(path.join(outDir, 'summary.md'), summary);
  process.stdout.write(summary + '\n');
  log(`done: ${path.join(outDir, 'summary.md')}`);
}
