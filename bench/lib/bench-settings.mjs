// The knobs of a benchmark run, read from the environment (bench/README.md lists them). bench/run.mjs
// and bench/quick.mjs read the same knobs; the quick check only starts from other defaults (shorter
// runs, its own ports so it can run beside a full run).
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const benchDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const repoDir = path.resolve(benchDir, '..');

/**
 * @param {Record<string, string|number>} [defaults] fallbacks by knob name, in place of run.mjs's
 * @param {Record<string, string|undefined>} [environment]
 */
export function benchSettings(defaults = {}, environment = process.env) {
  const knob = (name, fallback) => {
    const value = environment[name];
    if (value !== undefined && value !== '') return value;
    return defaults[name] === undefined ? fallback : String(defaults[name]);
  };
  const number = (name, fallback) => Number(knob(name, fallback));
  return {
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
    idleSettleSeconds: Number(knob('IDLE_SETTLE_SECONDS', '20')),
    soakSettleSeconds: Number(knob('SOAK_SETTLE_SECONDS', '60')),
    // Another build of the gateway (e.g. a patched copy, to measure a suggested change) — same CLI.
    gatewayCli: path.resolve(knob('GATEWAY_CLI', path.join(repoDir, 'bin', 'switchyard.js'))),
    nodeProxy: knob('NODE_PROXY', path.join(benchDir, 'lib', 'node-proxy.mjs')),
  };
}

/** The results folder: RESULTS_DIR, or `<root>/<time>`. */
export function resultsDir(root, environment = process.env) {
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  const chosen = environment.RESULTS_DIR;
  return path.resolve(chosen === undefined || chosen === '' ? path.join(root, stamp) : chosen);
}
