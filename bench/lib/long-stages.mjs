// The long stages of a run: (f) many slow streams held at once, and (g) the soak. They share the
// run's state through `bench` (settings, started processes, results, probes, body and header files).
import path from 'node:path';
import { rssKb, runPinned, sleep, watchProcess } from './processes.mjs';
import { scenarios as scenarioTable, slowStreamCases } from './scenarios.mjs';

/**
 * @typedef {{ settings: Record<string, any>, processes: Record<string, { pid: number }>, results: Record<string, any>,
 *   probe: (target: string, request: object) => Promise<string>, bodyFiles: Record<string, string>, targetUrls: Record<string, string>,
 *   headerFile: (target: string, format: string) => string, watchForeignCpu: () => { stop(loadgenSeconds: number): number|null },
 *   log: (message: string) => void, errorsOf: (run: object) => number, benchDir: string }} Bench
 */

export async function runSlowStreams(bench) {
  const fast = { passthrough: 'chat_stream', translated_messages: 'messages_stream', translated_chat_to_anthropic: 'chat_to_anthropic_stream' };
  const scenariosByName = Object.fromEntries(scenarioTable(bench.settings).map((scenario) => [scenario.name, scenario]));
  const cases = [];
  if (bench.processes.nodeproxy) cases.push({ target: 'nodeproxy', ...slowStreamCases()[0] });
  if (bench.processes.gateway) for (const slowCase of slowStreamCases()) cases.push({ target: 'gateway', ...slowCase });
  for (const slowCase of cases) {
    const twin = scenariosByName[fast[slowCase.name]];
    const availabilityKey = `${slowCase.target} ${slowCase.request.path} ${(slowCase.target === 'gateway' ? twin.gateway : twin.baseline).body}`;
    bench.results.availability[availabilityKey] ??= await bench.probe(slowCase.target, slowCase.target === 'gateway' ? twin.gateway : twin.baseline);
    if (bench.results.availability[availabilityKey] !== 'ok') {
      bench.results.slow.push({ target: slowCase.target, name: slowCase.name, title: slowCase.title, status: bench.results.availability[availabilityKey] });
      bench.log(`slow streams ${slowCase.target} ${slowCase.name}: ${bench.results.availability[availabilityKey]}`);
      continue;
    }
    await sleep(3000);
    const pid = bench.processes[slowCase.target].pid;
    const before = rssKb(pid);
    const watcher = watchProcess(pid, 250);
    const foreign = bench.watchForeignCpu();
    const output = await runPinned(bench.settings.loadgenCpu, 'node',
      [path.join(bench.benchDir, 'stream-load.mjs'), '--url', bench.targetUrls[slowCase.target] + slowCase.request.path, '--body', bench.bodyFiles[slowCase.request.body],
        '--headers', bench.headerFile(slowCase.target, slowCase.request.format), '--format', slowCase.request.format,
        '--once', String(bench.settings.slowStreams), '--min-events', String(bench.settings.streamChunks - 5), '--timeout-s', '300'],
      {}, 400_000);
    const watched = watcher.stop();
    await sleep(2000);
    const entry = {
      target: slowCase.target, name: slowCase.name, title: slowCase.title, status: 'ok', streams_requested: bench.settings.slowStreams,
      rss_before_kb: before, rss_peak_kb: watched.peakKb, rss_after_kb: rssKb(pid), sut_cpu_pct: watched.cpuPercent,
      foreign_cpu_pct: foreign.stop(output.loadgen_cpu_s),
      ...output,
    };
    bench.results.slow.push(entry);
    bench.log(`slow streams ${slowCase.target} ${slowCase.name}: ${entry.streams}/${bench.settings.slowStreams} complete, rss ${Math.round(before / 1024)} → peak ${Math.round(watched.peakKb / 1024)} MB, ttfb max ${entry.ttfb_max_ms} ms, total max ${entry.total_max_ms} ms${entry.first_error ? ', first error ' + entry.first_error : ''}`);
  }
}

/** Median RSS of `count` samples one second apart. */
async function steadyRss(pid, count = 5) {
  const samples = [];
  for (let index = 0; index < count; index++) {
    samples.push(rssKb(pid));
    await sleep(1000);
  }
  return samples.sort((a, b) => a - b)[Math.floor(count / 2)];
}

export async function runSoak(bench) {
  if (!bench.processes.gateway) return;
  const all = scenarioTable(bench.settings);
  const pick = (...names) => names.map((name) => all.find((scenario) => scenario.name === name))
    .find((scenario) => scenario && bench.results.availability[`gateway ${scenario.gateway.path} ${scenario.gateway.body}`] === 'ok');
  for (const scenario of all) {
    const key = `gateway ${scenario.gateway.path} ${scenario.gateway.body}`;
    bench.results.availability[key] ??= await bench.probe('gateway', scenario.gateway);
  }
  // The mix: small passthrough calls, translated calls, translated streams and 500 KB bodies at once.
  const mix = [
    { scenario: pick(`chat_c${bench.settings.concurrency}`), connections: 32 },
    { scenario: pick(`messages_c${bench.settings.concurrency}`, `chat_to_anthropic_c${bench.settings.concurrency}`), connections: 16 },
    { scenario: pick('messages_stream', 'responses_stream', 'chat_to_anthropic_stream'), connections: 16 },
    { scenario: pick('big_messages_c8', 'big_chat_to_anthropic_c8', 'big_chat_c8'), connections: 2 },
  ].filter((part) => part.scenario !== undefined);
  const pid = bench.processes.gateway.pid;
  bench.log(`soak: ${bench.settings.soakSeconds}s of ${mix.map((part) => `${part.scenario.name}×${part.connections}`).join(' + ')}; pause ${bench.settings.soakPauseSeconds}s before and after`);
  await sleep(bench.settings.soakPauseSeconds * 1000);
  const idleBefore = await steadyRss(pid);
  const watcher = watchProcess(pid, 1000);
  const slices = [];
  const sliceSeconds = Math.min(60, bench.settings.soakSeconds);
  for (let elapsed = 0; elapsed < bench.settings.soakSeconds; elapsed += sliceSeconds) {
    const seconds = Math.min(sliceSeconds, bench.settings.soakSeconds - elapsed);
    const foreign = bench.watchForeignCpu();
    const outputs = await Promise.all(mix.map((part) => measureSoakPart(bench, part.scenario, part.connections, seconds)));
    const foreignPercent = foreign.stop(outputs.reduce((sum, output) => sum + (output.loadgen_cpu_s ?? 0), 0));
    const slice = { at_s: elapsed, seconds, rss_kb: rssKb(pid), foreign_cpu_pct: foreignPercent, parts: outputs.map((output, index) => ({ scenario: mix[index].scenario.name, rps: output.rps, errors: bench.errorsOf(output), first_error: output.first_error ?? null })) };
    slices.push(slice);
    bench.log(`soak ${elapsed + seconds}s: rss ${Math.round(slice.rss_kb / 1024)} MB, foreign ${foreignPercent}%, ${slice.parts.map((part) => `${part.scenario} ${part.rps}/s err ${part.errors}`).join(', ')}`);
  }
  const watched = watcher.stop();
  await sleep(bench.settings.soakPauseSeconds * 1000);
  const idleAfter = await steadyRss(pid);
  // V8 shrinks its heap and the allocator returns pages over the following minute of quiet.
  await sleep(bench.settings.soakSettleSeconds * 1000);
  const idleAfterSettled = await steadyRss(pid);
  const startIdle = bench.results.idle.gateway_settled_kb ?? bench.results.idle.gateway_fresh_kb;
  bench.results.soak = {
    seconds: bench.settings.soakSeconds, pause_s: bench.settings.soakPauseSeconds, mix: mix.map((part) => ({ scenario: part.scenario.name, connections: part.connections })),
    idle_before_kb: idleBefore, peak_kb: watched.peakKb, idle_after_kb: idleAfter,
    returned_within_10pct: idleAfter <= idleBefore * 1.1, growth_pct: Number((((idleAfter - idleBefore) / idleBefore) * 100).toFixed(1)),
    settle_s: bench.settings.soakSettleSeconds, idle_after_settled_kb: idleAfterSettled, start_idle_kb: startIdle ?? null,
    settled_vs_start_pct: startIdle ? Number((((idleAfterSettled - startIdle) / startIdle) * 100).toFixed(1)) : null,
    rss_series_kb: watched.samples.map((sample) => [Math.round(sample.t / 1000), sample.kb]), slices,
  };
  bench.log(`soak: idle before ${Math.round(idleBefore / 1024)} MB, peak ${Math.round(watched.peakKb / 1024)} MB, idle after ${Math.round(idleAfter / 1024)} MB (${bench.results.soak.growth_pct}%), ${Math.round(idleAfterSettled / 1024)} MB after ${bench.settings.soakSettleSeconds} s more`);
}

function measureSoakPart(bench, scenario, connections, seconds) {
  const request = scenario.gateway;
  const url = bench.targetUrls.gateway + request.path;
  if (scenario.tool === 'wrk') {
    return runPinned(bench.settings.loadgenCpu, 'wrk', ['-t1', `-c${connections}`, `-d${seconds}s`, '--timeout', '10s', '-s', path.join(bench.benchDir, 'lib', 'wrk-post.lua'), url],
      { BENCH_BODY_FILE: bench.bodyFiles[request.body], BENCH_HEADERS_FILE: bench.headerFile('gateway', request.format) }, (seconds + 30) * 1000);
  }
  return runPinned(bench.settings.loadgenCpu, 'node', [path.join(bench.benchDir, 'stream-load.mjs'), '--url', url, '--body', bench.bodyFiles[request.body],
    '--headers', bench.headerFile('gateway', request.format), '--format', request.format, '--concurrency', String(connections), '--seconds', String(seconds),
    '--min-events', String(scenario.minEvents ?? 0)], {}, (seconds + 60) * 1000);
}
