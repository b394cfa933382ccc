// The targets of a benchmark run and one measurement of them: the fake upstream (`direct`), the bare
// node proxy and the gateway, started pinned on their cores, probed, then loaded with wrk or the
// stream client while their CPU, RSS and the machine's other load are watched. Shared by
// bench/run.mjs (the full run) and bench/quick.mjs (the quick check).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { watchCpus } from './cpu-usage.mjs';
import { cpuSeconds, machineLoad, runPinned, startPinned, waitHttp, watchProcess } from './processes.mjs';
import { buildBodies } from './scenarios.mjs';

const benchDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const endMarkers = { chat: 'data: [DONE]', messages: 'event: message_stop', responses: 'event: response.completed' };
const completionMarkers = { chat: '"chat.completion"', messages: '"type":"message"', responses: '"object":"response"', images: '"b64_json":"iVBORw0KGgo' };

/** Failed requests of one run, whichever load generator counted them. */
export const errorsOf = (run) => ['err_connect', 'err_read', 'err_write', 'err_status', 'err_timeout', 'err_incomplete', 'err_network']
  .reduce((sum, field) => sum + (Number(run[field]) || 0), run.failed ? 1 : 0);

/** One log line for one measured run. */
export function describe(run) {
  const head = run.ttfb_p50_ms !== undefined
    ? `streams/s=${run.rps} ttfb p50=${run.ttfb_p50_ms}ms total p50=${run.total_p50_ms}ms`
    : `rps=${run.rps} p50=${run.lat_p50_us}µs p99=${run.lat_p99_us}µs`;
  return `${head} errors=${errorsOf(run)} cpu=${run.sut_cpu_pct}% (${run.sut_cpu_us_per_request}µs/req) foreign=${run.foreign_cpu_pct}% rss=${Math.round((run.sut_peak_rss_kb ?? 0) / 1024)}MB hits=${run.upstream_hits}${run.failed ? ' FAILED ' + run.output : ''}${run.first_error ? ' first_error=' + run.first_error : ''}`;
}

function headersFrom(file) {
  const headers = { 'content-type': 'application/json' };
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    const match = /^\s*([^:\s]+)\s*:\s*(.*?)\s*$/.exec(line);
    if (match) headers[match[1]] = match[2];
  }
  return headers;
}

/**
 * @param {{ settings: ReturnType<typeof import('./bench-settings.mjs').benchSettings>, outDir: string,
 *           results: { availability: Record<string,string>, idle: Record<string,number> } }} run
 */
export function createBenchTargets({ settings, outDir, results }) {
  for (const folder of ['logs', 'bodies']) fs.mkdirSync(path.join(outDir, folder), { recursive: true });
  /** @type {Record<string,string>} */
  const bodyFiles = {};
  for (const [name, text] of Object.entries(buildBodies(settings.slowDelayMs))) {
    bodyFiles[name] = path.join(outDir, 'bodies', `${name}.json`);
    fs.writeFileSync(bodyFiles[name], text);
  }
  const upstreamUrl = `http://127.0.0.1:${settings.upstreamPort}`;
  const targetUrls = { direct: upstreamUrl, nodeproxy: `http://127.0.0.1:${settings.nodeProxyPort}`, gateway: `http://127.0.0.1:${settings.gatewayPort}` };
  /** @type {Record<string, import('./processes.mjs').Started>} */
  const processes = {};
  const headerFile = (target, format) => path.join(outDir, 'bodies', `${target}.${format}.headers`);

  function writeHeaders(target, format, key) {
    const file = headerFile(target, format);
    const secret = key ?? (format === 'messages' ? 'sk-ant-bench-fake' : 'sk-bench-fake');
    const lines = format === 'messages' ? [`x-api-key: ${secret}`, 'anthropic-version: 2023-06-01'] : [`authorization: Bearer ${secret}`];
    fs.writeFileSync(file, key === '' ? (format === 'messages' ? 'anthropic-version: 2023-06-01\n' : '') : lines.join('\n') + '\n');
    return file;
  }

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
        try {
          key = JSON.parse(created.stdout.trim().split('\n').pop() || '{}').key ?? '';
        } catch {
          // not JSON: the command failed, and its stderr says why
        }
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

  const upstreamHits = async () => (await (await fetch(`${upstreamUrl}/stats`)).json()).requests;

  /** One measured run of `scenario` on `target`, `seconds` long. */
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

  return { settings, processes, results, startServers, probe, measure, bodyFiles, targetUrls, upstreamUrl, headerFile, watchForeignCpu, errorsOf, benchDir };
}
