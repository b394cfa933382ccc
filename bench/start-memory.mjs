// Start time and idle memory of the gateway on the default config (no config file, an empty
// directory: a new SQLite file, the built-in simulator, no keys), over several starts.
//   node bench/start-memory.mjs                       # 7 starts of this checkout's build
//   RUNS=9 GATEWAY_CLI=/other/bin/switchyard.js node bench/start-memory.mjs
//   GATEWAY_NODE_ARGS="--max-semi-space-size=4" node bench/start-memory.mjs
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { measureStartAndIdle } from './lib/start-memory.mjs';

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const cli = process.env.GATEWAY_CLI ?? path.join(benchDir, '..', 'bin', 'switchyard.js');
const runs = Number(process.env.RUNS ?? '7');
const nodeArgs = (process.env.GATEWAY_NODE_ARGS ?? '').split(' ').filter(Boolean);
const config = process.env.GATEWAY_CONFIG;

const result = await measureStartAndIdle({
  cli,
  config,
  runs,
  nodeArgs,
  onRun: (run, index) =>
    console.log(`start ${index + 1}/${runs}: listening ${run.listeningMs.toFixed(0)} ms, first chat answer ${run.firstAnswerMs.toFixed(0)} ms (CPU ${run.firstAnswerCpuMs.toFixed(0)} ms), RSS 2 s after ${(run.idleRssKb / 1024).toFixed(1)} MB`),
});
console.log(
  `median of ${runs}: listening ${result.listeningMs.toFixed(0)} ms, spawn → first chat answer ${result.firstAnswerMs.toFixed(0)} ms (CPU ${result.firstAnswerCpuMs.toFixed(0)} ms), idle RSS ${(result.idleRssKb / 1024).toFixed(1)} MB`,
);
