#!/usr/bin/env node
// The quick check (`npm run bench:quick`, under two minutes): the gateway beside the bare node proxy
// on the same fake upstream, in one run, pinned as bench/run.mjs pins them, and one table of ratios.
// A guard read by a person: it exits 0 whatever the figures say, and non-zero only when the harness
// could not measure (a missing tool, a port in use, a gateway that does not start). See bench/README.md, "Quick check".
//
//   npm run bench:quick
//   REPS=5 DURATION=5 npm run bench:quick     # longer, steadier
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchSettings, resultsDir } from './lib/bench-settings.mjs';
import { createBenchTargets, describe } from './lib/bench-targets.mjs';
import { removeLedgerUnlessKept } from './lib/ledger-files.mjs';
import { harnessLog, machineLoad, rssKb, sleep, stop, stopAll } from './lib/processes.mjs';
import { renderQuickTable } from './lib/quick-table.mjs';
import { runMeta } from './lib/run-meta.mjs';
import { scenarios as scenarioTable } from './lib/scenarios.mjs';
import { measureStartAndIdle } from './lib/start-and-idle.mjs';

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const repoDir = path.resolve(benchDir, '..');
// Its own ports, so the quick check can run while a full run or a profile holds run.mjs's.
const settings = benchSettings({ DURATION: 3, WARMUP: 1, REPS: 3, TARGETS: 'nodeproxy gateway', UPSTREAM_PORT: 18291, GATEWAY_PORT: 18295, NODEPROXY_PORT: 18296 });
const starts = Number(process.env.STARTS || 3);
const startPort = Number(process.env.START_PORT || 18297);
const outDir = resultsDir('/tmp/switchyard-bench/quick');
fs.mkdirSync(outDir, { recursive: true });

const log = harnessLog(outDir);

const results = { meta: {}, settings, availability: {}, idle: {}, start: null, runs: [] };
const { processes, probe, measure, startServers, bodyFiles, upstreamUrl } = createBenchTargets({ settings, outDir, results });
const c = settings.concurrency;
const wanted = [`chat_c${c}`, `chat_to_anthropic_c${c}`, 'chat_c1', 'chat_stream'];

function checkTools() {
  for (const [tool, flag] of [['wrk', '-v'], ['taskset', '-V']]) {
    if (spawnSync(tool, [flag]).error) throw new Error(`${tool} is needed (apt-get install wrk util-linux, or run bench/run.sh once as root)`);
  }
  // This script and what it spawns belong on the load generators' core, as bench/run.sh places run.mjs.
  spawnSync('taskset', ['-a', '-p', '-c', settings.loadgenCpu, String(process.pid)], { stdio: 'ignore' });
}

async function runFigures() {
  const scenarios = wanted.map((name) => scenarioTable(settings).find((scenario) => scenario.name === name));
  const live = settings.targets.filter((target) => processes[target] !== undefined);
  const pairs = [];
  for (const scenario of scenarios) {
    for (const target of live) {
      const request = target === 'gateway' ? scenario.gateway : scenario.baseline;
      const key = `${target} ${request.path} ${request.body}`;
      results.availability[key] ??= await probe(target, request);
      if (results.availability[key] === 'ok') pairs.push({ scenario, target });
      else log(`${scenario.name} on ${target}: ${results.availability[key]}`);
    }
  }
  log(`warm-up ${settings.warmup} s per gateway scenario, then ${settings.reps} × ${settings.duration} s of ${pairs.length} scenario×target pairs`);
  // Only the gateway has code paths to warm (the node proxy's few lines are hot within its first
  // milliseconds), and one connection runs the same code as 64, warmed just before.
  const warmed = pairs.filter((pair) => pair.target === 'gateway' && pair.scenario.connections > 1);
  for (const { scenario, target } of warmed) await measure(target, scenario, settings.warmup);
  for (let rep = 1; rep <= settings.reps; rep += 1) {
    for (const scenario of scenarios) {
      // The gateway goes first on odd repetitions, the node proxy on even ones: neither always follows the other.
      const order = pairs.filter((pair) => pair.scenario === scenario).map((pair) => pair.target);
      if (rep % 2 === 0) order.reverse();
      for (const target of order) {
        const run = await measure(target, scenario, settings.duration);
        results.runs.push({ target, scenario: scenario.name, tool: scenario.tool, connections: scenario.connections, rep, ...run });
        log(`rep${rep} ${target} ${scenario.name}: ${describe(run)}`);
        await sleep(100);
      }
    }
  }
}

try {
  checkTools();
  results.meta = runMeta(settings, repoDir);
  log(`results → ${outDir}; machine load at start: ${results.meta.loadavg_start}`);
  await startServers();
  log(`servers up: ${Object.keys(processes).join(', ')}${results.availability.gateway ? ' — gateway ' + results.availability.gateway : ''}`);
  if (processes.gateway) {
    results.start = await measureStartAndIdle({
      cli: settings.gatewayCli, config: settings.gatewayConfig, nodeArgs: settings.gatewayNodeArgs, runs: starts, cpu: settings.sutCpu, port: startPort, workDir: outDir,
      env: { UPSTREAM_OPENAI_BASE_URL: `${upstreamUrl}/v1`, UPSTREAM_ANTHROPIC_BASE_URL: upstreamUrl },
      body: fs.readFileSync(bodyFiles.chat, 'utf8'),
    });
    log(`start to first answer ${results.start.starts.map((start) => start.ms).join(', ')} ms; idle RSS ${results.start.starts.map((start) => Math.round((start.kb ?? 0) / 1024)).join(', ')} MB`);
  }
  for (const target of Object.keys(processes)) results.idle[`${target}_fresh_kb`] = rssKb(processes[target].pid);
  await runFigures();
  results.meta.loadavg_end = machineLoad();
} catch (error) {
  log(`aborted: ${error instanceof Error ? error.stack : String(error)}`);
  results.aborted = String(error);
} finally {
  if (processes.gateway) await stop(processes.gateway, 15_000);
  await stopAll();
  removeLedgerUnlessKept(outDir);
  fs.writeFileSync(path.join(outDir, 'results.json'), JSON.stringify(results, null, 1));
  const table = renderQuickTable(results);
  fs.writeFileSync(path.join(outDir, 'table.md'), table);
  process.stdout.write(table);
  log(`done: ${path.join(outDir, 'table.md')}`);
  // The figures never fail the command; only a run that could not measure the gateway at all does.
  const measuredGateway = results.runs.some((run) => run.target === 'gateway');
  process.exitCode = results.aborted || (settings.targets.includes('gateway') && !measuredGateway) ? 1 : 0;
}
