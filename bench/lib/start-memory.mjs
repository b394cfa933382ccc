// Start time and idle memory of a gateway: spawn → the first successful chat completion, and RSS
// once the process has been idle a while. Each run spawns `node <cli> serve` on a fresh empty
// directory (so the default config opens a new SQLite file there), on --port 0, reads the address
// from its `switchyard listening` log line and sends one chat completion at once.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { median } from './statistics.mjs';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resident set size of a process in KiB, from /proc (0 when it is gone). */
function rssKb(pid) {
  try {
    const match = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

const clockTicksPerSecond = 100;

/**
 * CPU time (user + system) a process has used so far, in ms, from /proc: steadier than wall time on
 * a shared machine, where a neighbour's load stretches the wall clock but not the work.
 */
function cpuMs(pid) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicksPerSecond;
  } catch {
    return 0;
  }
}

/** POSTs a JSON body; resolves with the status and the body text. */
function postJson(url, body) {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: 'POST', headers: { 'content-type': 'application/json', connection: 'close' } }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(JSON.stringify(body));
  });
}

/** Resolves with the URL of the `switchyard listening` record, or rejects if the process ends first. */
function listeningUrl(child, timeoutMs) {
  return new Promise((resolve, reject) => {
    let buffered = '';
    let output = '';
    const timer = setTimeout(() => reject(new Error(`no 'switchyard listening' line within ${timeoutMs} ms: ${output.slice(-400)}`)), timeoutMs);
    const onData = (chunk) => {
      output += chunk;
      buffered += chunk;
      let newline;
      while ((newline = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        if (!line.includes('switchyard listening')) continue;
        try {
          const url = JSON.parse(line).url;
          clearTimeout(timer);
          resolve(url);
          return;
        } catch {
          /* not a JSON record: keep reading */
        }
      }
    };
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', onData);
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk) => (output += chunk));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`gateway exited with ${code} before listening: ${output.slice(-400)}`));
    });
  });
}

/**
 * One start: spawn → listening (ms), spawn → first chat answer (ms), the CPU time used by then (ms),
 * RSS (KiB) `idleMs` after that answer, with nothing else sent.
 * @param {{ cli: string, config?: string, nodeArgs?: string[], env?: Record<string,string>, idleMs?: number, model?: string }} options
 */
export async function measureOneStart({ cli, config, nodeArgs = [], env = {}, idleMs = 2000, model = 'sim-gpt' }) {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-start-'));
  const args = [...nodeArgs, path.resolve(cli), 'serve', '--port', '0', ...(config ? ['--config', path.resolve(config)] : [])];
  const started = process.hrtime.bigint();
  const child = spawn(process.execPath, args, { cwd: directory, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, SWITCHYARD_LOG_FORMAT: 'json', ...env } });
  const elapsedMs = () => Number(process.hrtime.bigint() - started) / 1e6;
  try {
    const url = await listeningUrl(child, 30_000);
    const listeningMs = elapsedMs();
    const answer = await postJson(`${url}/v1/chat/completions`, { model, messages: [{ role: 'user', content: 'hello' }] });
    const firstAnswerMs = elapsedMs();
    const firstAnswerCpuMs = cpuMs(child.pid);
    if (answer.status !== 200 || !answer.text.includes('"chat.completion"')) throw new Error(`first call answered ${answer.status}: ${answer.text.slice(0, 300)}`);
    await sleep(idleMs);
    return { listeningMs, firstAnswerMs, firstAnswerCpuMs, idleRssKb: rssKb(child.pid) };
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => (child.exitCode === null && child.signalCode === null ? child.once('exit', resolve) : resolve()));
    fs.rmSync(directory, { recursive: true, force: true });
  }
}

/**
 * `runs` starts one after another; every run's figures and their medians.
 * @param {{ cli: string, config?: string, runs?: number, nodeArgs?: string[], env?: Record<string,string>, idleMs?: number, model?: string, onRun?: (run: object, index: number) => void }} options
 */
export async function measureStartAndIdle({ runs = 5, onRun, ...options }) {
  const all = [];
  for (let index = 0; index < runs; index++) {
    const run = await measureOneStart(options);
    all.push(run);
    onRun?.(run, index);
  }
  return {
    runs: all,
    listeningMs: median(all.map((run) => run.listeningMs)),
    firstAnswerMs: median(all.map((run) => run.firstAnswerMs)),
    firstAnswerCpuMs: median(all.map((run) => run.firstAnswerCpuMs)),
    idleRssKb: median(all.map((run) => run.idleRssKb)),
  };
}
