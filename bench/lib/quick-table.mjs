// The quick check's one table: each figure's median over the repetitions with its spread (min–max),
// the gateway beside the bare node proxy measured in the same run, and how they compare. Pure: it
// reads the results object bench/quick.mjs writes (results.json) and measures nothing.
//   node bench/lib/quick-table.mjs RESULTS_DIR/results.json
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { errorsOf } from './bench-targets.mjs';
import { median } from './statistics.mjs';

/** Above this share of a core taken by other processes, a figure was measured on a busy machine. */
export const busyForeignPercent = 10;

/** @typedef {{ median: number, min: number, max: number }} Spread */

/** The median, least and greatest of the finite values, or null when there are none. */
export function spreadOf(values) {
  const finite = values.filter((value) => typeof value === 'number' && Number.isFinite(value));
  if (finite.length === 0) return null;
  return { median: median(finite), min: Math.min(...finite), max: Math.max(...finite) };
}

const runsOf = (results, target, scenario) => results.runs.filter((run) => run.target === target && run.scenario === scenario);

/** `field` of each repetition of `scenario` on `target`. */
const perRep = (results, target, scenario, field) => runsOf(results, target, scenario).map((run) => run[field]);

/**
 * `combine(gateway run, node proxy run)` for each repetition that measured both: the two runs of a
 * repetition are taken seconds apart, so a neighbour's load or the machine's drift hits them alike.
 */
function paired(results, scenario, field, combine) {
  const proxyByRep = new Map(runsOf(results, 'nodeproxy', scenario).map((run) => [run.rep, run]));
  return runsOf(results, 'gateway', scenario).flatMap((run) => {
    const proxy = proxyByRep.get(run.rep);
    const [mine, theirs] = [run[field], proxy?.[field]];
    return typeof mine === 'number' && typeof theirs === 'number' && theirs !== 0 ? [combine(mine, theirs)] : [];
  });
}

/**
 * The rows of the table, before formatting.
 * @returns {{ figure: string, digits: number, gateway: Spread|null, proxy: Spread|null,
 *             relation: null | { kind: 'ratio'|'added', unit: string, digits: number, spread: Spread|null } }[]}
 */
export function quickRows(results) {
  const { concurrency, streamConcurrency } = results.settings;
  const rows = [];
  const scaled = (values, factor) => values.map((value) => (typeof value === 'number' ? value * factor : value));
  const both = (scenario, field, factor = 1) => ({
    gateway: spreadOf(scaled(perRep(results, 'gateway', scenario, field), factor)),
    proxy: spreadOf(scaled(perRep(results, 'nodeproxy', scenario, field), factor)),
  });
  const ratio = (scenario, field) => ({ kind: 'ratio', unit: '×', digits: 2, spread: spreadOf(paired(results, scenario, field, (mine, theirs) => mine / theirs)) });
  // CPU per request compares as capacity (node proxy ÷ gateway): like req/s, 1.0 × is the proxy's pace and higher is better.
  const capacity = (scenario, field) => ({ kind: 'ratio', unit: '×', digits: 2, spread: spreadOf(paired(results, scenario, field, (mine, theirs) => theirs / mine)) });
  const added = (scenario, field, factor) => ({ kind: 'added', unit: 'ms', digits: 2, spread: spreadOf(paired(results, scenario, field, (mine, theirs) => (mine - theirs) * factor)) });

  for (const [scenario, title] of [[`chat_c${concurrency}`, 'chat passthrough'], [`chat_to_anthropic_c${concurrency}`, 'chat → Anthropic, translated']]) {
    rows.push({ figure: `${title}, ${concurrency} connections: req/s`, digits: 0, ...both(scenario, 'rps'), relation: ratio(scenario, 'rps') });
    rows.push({ figure: `${title}, ${concurrency} connections: CPU µs per request`, digits: 0, ...both(scenario, 'sut_cpu_us_per_request'), relation: capacity(scenario, 'sut_cpu_us_per_request') });
  }
  rows.push({ figure: 'chat passthrough, 1 connection: p50 latency (ms)', digits: 2, ...both('chat_c1', 'lat_p50_us', 1 / 1000), relation: added('chat_c1', 'lat_p50_us', 1 / 1000) });
  rows.push({ figure: `chat passthrough stream, ${streamConcurrency} streams: p50 time to first byte (ms)`, digits: 2, ...both('chat_stream', 'ttfb_p50_ms'), relation: added('chat_stream', 'ttfb_p50_ms', 1) });

  const megabytes = (kb) => (typeof kb === 'number' ? kb / 1024 : kb);
  const idle = results.idle ?? {};
  rows.push({ figure: 'RSS idle, fresh (MB)', digits: 0,
    gateway: spreadOf((results.start?.starts ?? []).map((start) => megabytes(start.kb))), proxy: spreadOf([megabytes(idle.nodeproxy_fresh_kb)]), relation: null });
  rows.push({ figure: `RSS peak at ${concurrency} connections, chat passthrough (MB)`, digits: 0,
    gateway: spreadOf(perRep(results, 'gateway', `chat_c${concurrency}`, 'sut_peak_rss_kb').map(megabytes)),
    proxy: spreadOf(perRep(results, 'nodeproxy', `chat_c${concurrency}`, 'sut_peak_rss_kb').map(megabytes)), relation: null });
  rows.push({ figure: 'start to first answer (ms)', digits: 0, gateway: spreadOf((results.start?.starts ?? []).map((start) => start.ms)), proxy: null, relation: null });
  return rows;
}

const fixed = (value, digits) => value.toFixed(digits);

/** "1234 (1200–1260)": the median, then the spread when the repetitions differ. */
export function formatSpread(spread, digits, sign = false) {
  if (spread === null) return '–';
  const show = (value) => `${sign && value >= 0 ? '+' : ''}${fixed(value, digits)}`;
  const same = fixed(spread.min, digits) === fixed(spread.max, digits);
  return same ? show(spread.median) : `${show(spread.median)} (${show(spread.min)}–${show(spread.max)})`;
}

function formatRelation(relation) {
  if (relation === null || relation.spread === null) return '–';
  return formatSpread(relation.spread, relation.digits, relation.kind === 'added').replace(/^(\S+)/, `$1 ${relation.unit}`);
}

/** Foreign CPU over every measured run: its median and greatest value, in % of one core. */
export function foreignCpu(results) {
  return spreadOf(results.runs.map((run) => run.foreign_cpu_pct));
}

/** The whole printout: a line on where it ran, the table, foreign CPU, and a warning when the machine was busy. */
export function renderQuickTable(results) {
  const { settings, meta } = results;
  const out = [];
  out.push(`# Switchyard quick check — ${meta.date ?? new Date().toISOString()}`, '');
  // A harness that failed before it looked at the machine has no metadata to print.
  if (meta.commit !== undefined) out.push(`Commit ${meta.commit}, ${meta.cpus} × ${meta.cpu_model}, Node ${meta.node}; ${meta.pinning}.`);
  out.push(`${settings.reps} × ${settings.duration} s per figure after a ${settings.warmup} s warm-up of the gateway, gateway and node proxy interleaved; medians, (min–max) over the repetitions.`, '');
  out.push('| figure | gateway | node proxy | ratio/added |', '|---|---:|---:|---:|');
  for (const row of quickRows(results)) {
    out.push(`| ${row.figure} | ${formatSpread(row.gateway, row.digits)} | ${formatSpread(row.proxy, row.digits)} | ${formatRelation(row.relation)} |`);
  }
  out.push('');
  out.push('ratio = gateway ÷ node proxy for req/s, node proxy ÷ gateway for CPU µs per request (steadier on a shared machine), repetition by repetition: 1.00 × is the node proxy\'s pace, higher is better; added = gateway − node proxy, in ms.');
  const foreign = foreignCpu(results);
  const busyRuns = results.runs.filter((run) => (run.foreign_cpu_pct ?? 0) > busyForeignPercent).length;
  out.push(foreign === null
    ? 'Foreign CPU: not measured.'
    : `Foreign CPU (other processes' share, % of one core): median ${fixed(foreign.median, 1)} %, max ${fixed(foreign.max, 1)} % over ${results.runs.length} runs; load average at start ${meta.loadavg_start}.`);
  if (foreign !== null && (foreign.median > busyForeignPercent || busyRuns > results.runs.length / 3)) {
    out.push(`WARNING: the machine was busy (${busyRuns} of ${results.runs.length} runs with more than ${busyForeignPercent} % of a core taken by other processes): throughput and latency are noisy; trust the CPU µs per request ratio most.`);
  }
  const failed = results.runs.reduce((sum, run) => sum + errorsOf(run), 0);
  if (failed > 0) out.push(`WARNING: ${failed} requests failed during the measured runs (see results.json).`);
  for (const [what, status] of Object.entries(results.availability ?? {})) if (status !== 'ok') out.push(`Not measured: ${what}: ${status}`);
  if (results.aborted) out.push(`ABORTED: ${results.aborted}`);
  return out.join('\n') + '\n';
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [file] = process.argv.slice(2);
  if (!file) {
    process.stderr.write('usage: node bench/lib/quick-table.mjs RESULTS_DIR/results.json\n');
    process.exit(2);
  }
  process.stdout.write(renderQuickTable(JSON.parse(fs.readFileSync(file, 'utf8'))));
}
