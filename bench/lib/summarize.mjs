// Turns results.json into the markdown tables of bench/README.md: medians over repetitions, the
// gateway beside its baselines from the same run, ratios, and each target met or missed by how much.
//   node bench/lib/summarize.mjs RESULTS_DIR/results.json
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

const median = (values) => {
  const list = values.filter((value) => typeof value === 'number' && Number.isFinite(value)).sort((a, b) => a - b);
  if (list.length === 0) return null;
  const middle = Math.floor(list.length / 2);
  return list.length % 2 ? list[middle] : (list[middle - 1] + list[middle]) / 2;
};
const errorsOf = (run) => ['err_connect', 'err_read', 'err_write', 'err_status', 'err_timeout', 'err_incomplete', 'err_network']
  .reduce((sum, field) => sum + (Number(run[field]) || 0), run.failed ? 1 : 0);
const mb = (kb) => (kb == null ? '–' : (kb / 1024).toFixed(0));
const fixed = (value, digits = 0) => (value == null ? '–' : Number(value).toFixed(digits));
const ratio = (a, b) => (a == null || b == null || b === 0 ? '–' : (a / b).toFixed(2));
const ms = (us) => (us == null ? '–' : (us / 1000).toFixed(2));

/** Medians over repetitions of one scenario on one target. */
function aggregate(runs, scenario, target) {
  const list = runs.filter((run) => run.scenario === scenario && run.target === target);
  if (list.length === 0) return undefined;
  const field = (name) => median(list.map((run) => run[name]));
  return {
    reps: list.length, rpsList: list.map((run) => run.rps), errors: list.reduce((sum, run) => sum + errorsOf(run), 0),
    rps: field('rps'), p50: field('lat_p50_us'), p90: field('lat_p90_us'), p99: field('lat_p99_us'),
    ttfb50: field('ttfb_p50_ms'), ttfb99: field('ttfb_p99_ms'), total50: field('total_p50_ms'),
    cpu: field('sut_cpu_pct'), cpuPerRequest: field('sut_cpu_us_per_request'), rss: median(list.map((run) => run.sut_peak_rss_kb)), foreign: field('foreign_cpu_pct'),
    hits: list.reduce((sum, run) => sum + (run.upstream_hits ?? 0), 0), requests: list.reduce((sum, run) => sum + (run.requests ?? run.streams ?? 0), 0),
    first_error: list.find((run) => run.first_error)?.first_error,
  };
}

function verdict(value, limit, better) {
  if (value == null) return 'not measured';
  const met = better === 'higher' ? value >= limit : value <= limit;
  if (met) return 'met';
  const by = better === 'higher' ? ((limit - value) / limit) * 100 : ((value - limit) / limit) * 100;
  return `**missed by ${by.toFixed(0)} %**`;
}

/**
 * @param {object} results the run's results.json
 * @param {{ maxForeign?: number }} [options] leave out runs during which other processes took more
 *   than this share of a core (the rest of each scenario's repetitions are still medianed)
 */
export function summarize(results, options = {}) {
  const { settings } = results;
  const allRuns = results.runs;
  const runs = options.maxForeign === undefined ? allRuns : allRuns.filter((run) => (run.foreign_cpu_pct ?? 0) <= options.maxForeign);
  const scenarioNames = [...new Set(runs.map((run) => run.scenario))];
  const titleOf = Object.fromEntries(runs.map((run) => [run.scenario, run.title]));
  const out = [];
  const push = (...lines) => out.push(...lines);
  push(`# Switchyard benchmark — ${results.meta.date ?? ''}`, '');
  push(`${results.meta.cpus} × ${results.meta.cpu_model}, Node ${results.meta.node}, ${results.meta.wrk ?? ''}; commit ${results.meta.commit}, dist built ${results.meta.dist_built}.`);
  push(`${settings.duration} s per run, ${settings.reps} repetitions (medians shown), warmup ${settings.warmup} s; ${results.meta.pinning}.`);
  push(`Load average at start ${results.meta.loadavg_start}, at end ${results.meta.loadavg_end ?? '?'}. "foreign" = CPU (in % of one core) taken during the measurement by processes that are not part of the benchmark (other users of this shared 2-core machine): above ~10 % the figure was taken on a busy machine.`, '');
  if (options.maxForeign !== undefined) {
    push(`Runs during which other processes took more than ${options.maxForeign} % of a core are left out: ${allRuns.length - runs.length} of ${allRuns.length}; the medians are over the remaining repetitions.`, '');
  }
  const unavailable = Object.entries(results.availability).filter(([, status]) => status !== 'ok');
  if (unavailable.length) push('Not measured:', '', ...unavailable.map(([key, status]) => `- \`${key}\`: ${status}`), '');
  if (results.aborted) push(`**Run aborted: ${results.aborted}**`, '');

  const wrkScenarios = scenarioNames.filter((name) => runs.find((run) => run.scenario === name).tool === 'wrk');
  const many = wrkScenarios.filter((name) => runs.find((run) => run.scenario === name).connections > 1);
  if (many.length) {
    push('## Throughput (non-streamed)', '', '| scenario | conns | direct RPS | node-proxy RPS | gateway RPS (reps) | ×direct | ×node-proxy | gateway p50 / p99 ms | gateway CPU | CPU µs/request: node-proxy / gateway | foreign | gateway RSS MB | errors |', '|---|---:|---:|---:|---|---:|---:|---|---:|---|---:|---:|---:|');
    for (const name of many) {
      const [direct, proxy, gateway] = ['direct', 'nodeproxy', 'gateway'].map((target) => aggregate(runs, name, target));
      push(`| ${titleOf[name]} \`${name}\` | ${runs.find((run) => run.scenario === name).connections} | ${fixed(direct?.rps)} | ${fixed(proxy?.rps)} | ${fixed(gateway?.rps)}${gateway ? ` (${gateway.rpsList.map((rps) => fixed(rps)).join(', ')})` : ''} | ${ratio(gateway?.rps, direct?.rps)} | ${ratio(gateway?.rps, proxy?.rps)} | ${ms(gateway?.p50)} / ${ms(gateway?.p99)} | ${fixed(gateway?.cpu)} % | ${fixed(proxy?.cpuPerRequest)} / ${fixed(gateway?.cpuPerRequest)} | ${fixed(gateway?.foreign)} % | ${mb(gateway?.rss)} | ${gateway ? gateway.errors : '–'} |`);
    }
    push('');
  }
  const single = wrkScenarios.filter((name) => runs.find((run) => run.scenario === name).connections === 1);
  if (single.length) {
    push('## Latency, one connection (non-streamed)', '', '| scenario | direct p50 / p99 µs | node-proxy p50 / p99 µs | gateway p50 / p99 µs | added p50 vs direct | node-proxy added p50 | gateway sequential RPS | foreign |', '|---|---|---|---|---:|---:|---:|---:|');
    for (const name of single) {
      const [direct, proxy, gateway] = ['direct', 'nodeproxy', 'gateway'].map((target) => aggregate(runs, name, target));
      const added = (row) => (row?.p50 == null || direct?.p50 == null ? '–' : `+${fixed(row.p50 - direct.p50)} µs`);
      push(`| ${titleOf[name]} \`${name}\` | ${fixed(direct?.p50)} / ${fixed(direct?.p99)} | ${fixed(proxy?.p50)} / ${fixed(proxy?.p99)} | ${fixed(gateway?.p50)} / ${fixed(gateway?.p99)} | ${added(gateway)} | ${added(proxy)} | ${fixed(gateway?.rps)} | ${fixed(gateway?.foreign)} % |`);
    }
    push('');
  }
  const streamScenarios = scenarioNames.filter((name) => runs.find((run) => run.scenario === name).tool === 'stream');
  if (streamScenarios.length) {
    push(`## Streaming, ${settings.streamConcurrency} concurrent, ${settings.streamChunks} chunks ${settings.chunkDelayMs} ms apart`, '', '| scenario | direct TTFB p50 / p99 ms | node-proxy TTFB | gateway TTFB | added TTFB p50 | total p50 direct / gateway ms | gateway streams/s | gateway CPU | errors |', '|---|---|---|---|---:|---|---:|---:|---:|');
    for (const name of streamScenarios) {
      const [direct, proxy, gateway] = ['direct', 'nodeproxy', 'gateway'].map((target) => aggregate(runs, name, target));
      const pair = (row) => `${fixed(row?.ttfb50, 2)} / ${fixed(row?.ttfb99, 2)}`;
      const added = gateway?.ttfb50 == null || direct?.ttfb50 == null ? '–' : `+${fixed((gateway.ttfb50 - direct.ttfb50) * 1000)} µs`;
      push(`| ${titleOf[name]} \`${name}\` | ${pair(direct)} | ${pair(proxy)} | ${pair(gateway)} | ${added} | ${fixed(direct?.total50, 1)} / ${fixed(gateway?.total50, 1)} | ${fixed(gateway?.rps)} | ${fixed(gateway?.cpu)} % | ${gateway ? gateway.errors : '–'} |`);
    }
    push('');
  }
  const imageScenarios = scenarioNames.filter((name) => runs.find((run) => run.scenario === name).group === 'images_b64')
    .sort((a, b) => runs.find((run) => run.scenario === a).connections - runs.find((run) => run.scenario === b).connections);
  if (imageScenarios.length) {
    const conns = imageScenarios.map((name) => runs.find((run) => run.scenario === name).connections);
    const per = (label) => conns.map((count) => `${label} ${count}`).join(' / ');
    push(`## Image generation, ≈2 MB \`b64_json\` answer (\`${imageScenarios.join('`, `')}\`)`, '');
    push(`Latency in ms; "added" is the p50 over the direct call's, and over the node proxy's, at ${conns.join(' / ')} connection(s). RSS and CPU are the target's own (for \`direct\`, the fake upstream's); RSS is the peak during the run at ${conns[conns.length - 1]} connections.`, '');
    push(`| target | p50 / p99, ${per('c')} | RPS ${per('c')} | MB/s at c${conns[conns.length - 1]} | added p50 vs direct | added p50 vs node proxy | CPU µs/request at c${conns[conns.length - 1]} | peak RSS MB | foreign | errors |`, '|---|---|---|---:|---|---|---:|---:|---:|---:|');
    for (const target of ['direct', 'nodeproxy', 'gateway']) {
      const rows = imageScenarios.map((name) => aggregate(runs, name, target));
      if (rows.every((row) => row === undefined)) continue;
      const baseRows = (base) => imageScenarios.map((name) => aggregate(runs, name, base));
      const added = (base) => (target === base ? '–' : rows.map((row, index) => {
        const other = baseRows(base)[index];
        return row?.p50 == null || other?.p50 == null ? '–' : `${row.p50 - other.p50 >= 0 ? '+' : ''}${ms(row.p50 - other.p50)}`;
      }).join(' / '));
      const last = rows[rows.length - 1];
      const list = runs.filter((run) => run.scenario === imageScenarios[imageScenarios.length - 1] && run.target === target);
      const megabytesPerSecond = median(list.map((run) => (run.bytes && run.duration_us ? run.bytes / run.duration_us : null)));
      push(`| ${target} | ${rows.map((row) => `${ms(row?.p50)} / ${ms(row?.p99)}`).join(', ')} | ${rows.map((row) => fixed(row?.rps, 1)).join(' / ')} | ${fixed(megabytesPerSecond)} | ${added('direct')} | ${added('nodeproxy')} | ${fixed(last?.cpuPerRequest)} | ${mb(last?.rss)} | ${rows.map((row) => fixed(row?.foreign)).join(' / ')} % | ${rows.reduce((sum, row) => sum + (row?.errors ?? 0), 0)} |`);
    }
    push('');
  }
  if (results.slow.length) {
    push(`## ${settings.slowStreams} slow streams held at once (${settings.streamChunks} chunks, ${settings.slowDelayMs} ms apart)`, '', '| target | path | complete | RSS before → peak → after MB | TTFB p50 / max ms | total p50 / max ms | CPU | errors |', '|---|---|---:|---|---|---|---:|---|');
    for (const slow of results.slow) {
      if (slow.status !== 'ok') push(`| ${slow.target} | ${slow.title} | ${slow.status} | | | | | |`);
      else push(`| ${slow.target} | ${slow.title} | ${slow.streams}/${slow.streams_requested} | ${mb(slow.rss_before_kb)} → ${mb(slow.rss_peak_kb)} → ${mb(slow.rss_after_kb)} | ${fixed(slow.ttfb_p50_ms)} / ${fixed(slow.ttfb_max_ms)} | ${fixed(slow.total_p50_ms)} / ${fixed(slow.total_max_ms)} | ${fixed(slow.sut_cpu_pct)} % | ${errorsOf(slow)}${slow.first_error ? ` (${String(slow.first_error).slice(0, 80)})` : ''} |`);
    }
    push('');
  }
  if (results.soak) {
    const soak = results.soak;
    push(`## Soak: ${soak.seconds} s of ${soak.mix.map((part) => `\`${part.scenario}\`×${part.connections}`).join(' + ')}`, '');
    push('| idle before (warm) MB | peak MB | idle after MB (after ' + soak.pause_s + ' s pause) | change | back within 10 %? |', '|---:|---:|---:|---:|---|');
    push(`| ${mb(soak.idle_before_kb)} | ${mb(soak.peak_kb)} | ${mb(soak.idle_after_kb)} | ${soak.growth_pct > 0 ? '+' : ''}${soak.growth_pct} % | ${soak.returned_within_10pct ? 'yes' : '**no**'} |`, '');
    if (soak.idle_after_settled_kb != null) {
      push(`After ${soak.settle_s} s more of quiet: ${mb(soak.idle_after_settled_kb)} MB, ${soak.settled_vs_start_pct > 0 ? '+' : ''}${soak.settled_vs_start_pct} % against the settled idle at start (${mb(soak.start_idle_kb)} MB).`, '');
    }
    const first = soak.slices[0];
    const last = soak.slices[soak.slices.length - 1];
    if (first && last) {
      push(`Throughput per part, first slice → last slice: ${first.parts.map((part, index) => `\`${part.scenario}\` ${fixed(part.rps)} → ${fixed(last.parts[index]?.rps)}/s`).join('; ')}. Errors over the soak: ${soak.slices.reduce((sum, slice) => sum + slice.parts.reduce((s, part) => s + part.errors, 0), 0)}.`, '');
    }
  }
  // ---------------------------------------------------------------- memory and targets
  const c = settings.concurrency;
  const at64 = aggregate(runs, `chat_c${c}`, 'gateway');
  const at64Translated = aggregate(runs, `messages_c${c}`, 'gateway') ?? aggregate(runs, `chat_to_anthropic_c${c}`, 'gateway');
  // RSS at 64 connections from the memory stage (the gateway's first traffic) when it ran.
  const firstTraffic = (name) => (results.memory ?? []).find((entry) => entry.scenario === name)?.sut_peak_rss_kb;
  const rss64 = firstTraffic(`chat_c${c}`) ?? at64?.rss;
  const rss64Translated = firstTraffic(`messages_c${c}`) ?? at64Translated?.rss;
  const slowPeak = Math.max(0, ...results.slow.filter((slow) => slow.target === 'gateway' && slow.status === 'ok').map((slow) => slow.rss_peak_kb));
  push('## Memory (gateway RSS, MB)', '', '| idle, fresh (2 s after start) / settled (after `IDLE_SETTLE_SECONDS` of quiet) | at 64 connections, first traffic (passthrough / then translated) | holding the slow streams (worst case) | soak: idle before → peak → after |', '|---:|---|---:|---|');
  push(`| ${mb(results.idle.gateway_fresh_kb)} / ${mb(results.idle.gateway_settled_kb)} | ${mb(rss64)} / ${mb(rss64Translated)} | ${slowPeak ? mb(slowPeak) : '–'} | ${results.soak ? `${mb(results.soak.idle_before_kb)} → ${mb(results.soak.peak_kb)} → ${mb(results.soak.idle_after_kb)}` : '–'} |`, '');

  const rows = [];
  const proxy64 = aggregate(runs, `chat_c${c}`, 'nodeproxy');
  const translatedProxy = aggregate(runs, `messages_c${c}`, 'nodeproxy');
  const translatedGateway = aggregate(runs, `messages_c${c}`, 'gateway');
  const chatToAnthropic = aggregate(runs, `chat_to_anthropic_c${c}`, 'gateway');
  const addedP50 = (name) => {
    const direct = aggregate(runs, name, 'direct');
    const gateway = aggregate(runs, name, 'gateway');
    return direct?.p50 == null || gateway?.p50 == null ? null : gateway.p50 - direct.p50;
  };
  const addedTtfb = (name) => {
    const direct = aggregate(runs, name, 'direct');
    const gateway = aggregate(runs, name, 'gateway');
    return direct?.ttfb50 == null || gateway?.ttfb50 == null ? null : (gateway.ttfb50 - direct.ttfb50) * 1000;
  };
  const row = (what, measured, limit, better, unit) => rows.push(`| ${what} | ${measured == null ? '–' : `${Number(measured).toFixed(unit === '×' ? 2 : 0)}${unit === '×' ? ' ×' : ' ' + unit}`} | ${better === 'higher' ? '≥' : '≤'} ${limit}${unit === '×' ? ' ×' : ' ' + unit} | ${verdict(measured, limit, better)} |`);
  // CPU per request is the steadier measure when other processes share the cores: on a core of
  // its own each process would serve about 1e6 / (µs per request) requests a second.
  const capacity = (gateway, proxy) => (gateway?.cpuPerRequest && proxy?.cpuPerRequest ? proxy.cpuPerRequest / gateway.cpuPerRequest : null);
  const overProxy = (name, field, scale) => {
    const proxy = aggregate(runs, name, 'nodeproxy');
    const gateway = aggregate(runs, name, 'gateway');
    return proxy?.[field] == null || gateway?.[field] == null ? null : (gateway[field] - proxy[field]) * scale;
  };
  // The chat → Anthropic run's own node proxy relays the chat body to the chat upstream, when it ran.
  const chatToAnthropicProxy = aggregate(runs, `chat_to_anthropic_c${c}`, 'nodeproxy') ?? proxy64;
  row(`chat passthrough RPS at ${c} conns ÷ node proxy`, at64 && proxy64 ? at64.rps / proxy64.rps : null, 0.95, 'higher', '×');
  row(`… same, from CPU µs per request (node proxy ÷ gateway)`, capacity(at64, proxy64), 0.95, 'higher', '×');
  row(`chat → Anthropic (translated) RPS at ${c} ÷ node proxy (chat)`, chatToAnthropic && chatToAnthropicProxy ? chatToAnthropic.rps / chatToAnthropicProxy.rps : null, 0.75, 'higher', '×');
  row(`… same, from CPU µs per request`, capacity(chatToAnthropic, chatToAnthropicProxy), 0.75, 'higher', '×');
  row(`messages → chat (translated) RPS at ${c} ÷ node proxy`, translatedGateway && translatedProxy ? translatedGateway.rps / translatedProxy.rps : null, 0.6, 'higher', '×');
  row(`… same, from CPU µs per request`, capacity(translatedGateway, translatedProxy), 0.6, 'higher', '×');
  row('added latency p50 over the node proxy, passthrough (chat, 1 conn)', overProxy('chat_c1', 'p50', 1), 60, 'lower', 'µs');
  row('added latency p50 over the upstream, passthrough (chat, 1 conn)', addedP50('chat_c1'), 200, 'lower', 'µs');
  row('added latency p50 over the upstream, translated (messages → chat, 1 conn)', addedP50('messages_c1'), 400, 'lower', 'µs');
  row('added latency p50 over the upstream, translated (chat → Anthropic, 1 conn)', addedP50('chat_to_anthropic_c1'), 400, 'lower', 'µs');
  row('added TTFB p50 over the node proxy, `chat_stream`', overProxy('chat_stream', 'ttfb50', 1000), 300, 'lower', 'µs');
  for (const name of streamScenarios) row(`added TTFB p50 over the upstream, \`${name}\``, addedTtfb(name), 1000, 'lower', 'µs');
  row('RSS idle (fresh)', results.idle.gateway_fresh_kb == null ? null : results.idle.gateway_fresh_kb / 1024, 90, 'lower', 'MB');
  row('RSS idle (settled)', results.idle.gateway_settled_kb == null ? null : results.idle.gateway_settled_kb / 1024, 90, 'lower', 'MB');
  row(`RSS at ${c} connections (passthrough)`, rss64 == null ? null : rss64 / 1024, 150, 'lower', 'MB');
  row(`RSS at ${c} connections (translated, after the passthrough run)`, rss64Translated == null ? null : rss64Translated / 1024, 150, 'lower', 'MB');
  row(`RSS holding ${settings.slowStreams} streams (worst path)`, slowPeak ? slowPeak / 1024 : null, 300, 'lower', 'MB');
  if (results.soak) row('RSS after the soak vs the warm idle before it', results.soak.growth_pct, 10, 'lower', '%');
  if (results.soak?.settled_vs_start_pct != null) row('RSS after the soak and a quiet minute vs the settled idle at start', results.soak.settled_vs_start_pct, 10, 'lower', '%');
  push('## Targets', '', '| target | measured | wanted | verdict |', '|---|---:|---:|---|', ...rows, '');
  return out.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [file, maxForeign] = process.argv.slice(2);
  if (!file) {
    process.stderr.write('usage: node bench/lib/summarize.mjs RESULTS_DIR/results.json [MAX_FOREIGN_PERCENT]\n');
    process.exit(2);
  }
  const options = maxForeign === undefined ? {} : { maxForeign: Number(maxForeign) };
  process.stdout.write(summarize(JSON.parse(fs.readFileSync(file, 'utf8')), options) + '\n');
}
