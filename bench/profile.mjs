#!/usr/bin/env node
// CPU profiles of the gateway under load, one per scenario: runs bench/run.mjs with only the gateway
// as target, the gateway started with `node --cpu-prof`, then summarises each profile.
//   node bench/profile.mjs                                   # chat_c64 and messages_c64
//   PROFILE_SCENARIOS="chat_c64 chat_to_anthropic_c64 big_chat_c8" PROFILE_SECONDS=20 node bench/profile.mjs
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyzeProfile } from './lib/analyze-profile.mjs';

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const scenarios = (process.env.PROFILE_SCENARIOS ?? 'chat_c64 messages_c64').split(/\s+/).filter(Boolean);
const seconds = process.env.PROFILE_SECONDS ?? '15';
const outRoot = path.resolve(process.env.RESULTS_DIR ?? `/tmp/switchyard-bench/profiles/${new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15)}`);
const report = [];

for (const scenario of scenarios) {
  const dir = path.join(outRoot, scenario);
  fs.mkdirSync(dir, { recursive: true });
  const run = spawnSync('taskset', ['-c', process.env.LOADGEN_CPU ?? '0', 'node', path.join(benchDir, 'run.mjs')], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env, RESULTS_DIR: dir, TARGETS: 'gateway', STAGES: 'scenarios', SCENARIOS: scenario, REPS: '1', DURATION: seconds, WARMUP: '3',
      GATEWAY_NODE_ARGS: `--cpu-prof --cpu-prof-dir=${dir} --cpu-prof-interval=200`,
    },
  });
  const profile = fs.readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
  if (run.status !== 0 || profile === undefined) {
    report.push(`## ${scenario}`, '', `no profile written (run exit ${run.status}); see ${dir}/run.log`, '');
    continue;
  }
  const results = JSON.parse(fs.readFileSync(path.join(dir, 'results.json'), 'utf8'));
  const measured = results.runs.find((entry) => entry.target === 'gateway');
  report.push(`## ${scenario}: ${measured ? `${measured.rps} req/s under the profiler` : 'not measured'} (${path.join(dir, profile)})`, '');
  report.push(analyzeProfile(JSON.parse(fs.readFileSync(path.join(dir, profile), 'utf8')), Number(process.env.PROFILE_TOP ?? 25)), '');
}
fs.mkdirSync(outRoot, { recursive: true });
fs.writeFileSync(path.join(outRoot, 'profiles.md'), report.join('\n'));
process.stdout.write(report.join('\n') + '\n');
