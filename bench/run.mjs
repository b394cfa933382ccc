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
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchSettings, resultsDir } from './lib/bench-settings.mjs';
import { createBenchTargets, describe } from './lib/bench-targets.mjs';
import { harnessLog, machineLoad, rssKb, sleep, stop, stopAll } from './lib/processes.mjs';
import { removeLedgerUnlessKept } from './lib/ledger-files.mjs';
import { runSlowStreams, runSoak } from './lib/long-stages.mjs';
import { runMeta } from './lib/run-meta.mjs';
import { scenarios as scenarioTable } from './lib/scenarios.mjs';
import { summarize } from './lib/summarize.mjs';

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const repoDir = path.resolve(benchDir, '..');
const settings = benchSettings();
const outDir = resultsDir('/tmp/switchyard-bench/results');
fs.mkdirSync(outDir, { recursive: true });

const log = harnessLog(outDir);

// ---------------------------------------------------------------- servers, probes, one measured run
const results = { meta: {}, settings, availability: {}, idle: {}, memory: [], runs: [], slow: [], soak: null };
const targets = createBenchTargets({ settings, outDir, results });
const { processes, probe, measure, startServers } = targets;

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
  results.meta = runMeta(settings, repoDir);
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
  const bench = { ...targets, log };
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
