// Starting, pinning, watching and stopping the processes of a benchmark run. Every process is
// started through `taskset -c CPU` (which execs the command, so the PID is the server's own) in its
// own process group; stopAll() signals exactly those groups, never anything by name.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** @typedef {{ name: string, pid: number, child: import('node:child_process').ChildProcess, exited: boolean }} Started */

/** @type {Started[]} */
const started = [];

/**
 * @param {string} name @param {string|number} cpu @param {string} command @param {string[]} args
 * @param {Record<string,string>} env extra environment @param {string} logFile
 * @returns {Started}
 */
export function startPinned(name, cpu, command, args, env, logFile) {
  const log = fs.openSync(logFile, 'a');
  const child = spawn('taskset', ['-c', String(cpu), command, ...args], {
    detached: true,
    stdio: ['ignore', log, log],
    env: { ...process.env, ...env },
  });
  fs.closeSync(log);
  const entry = { name, pid: /** @type {number} */ (child.pid), child, exited: false };
  child.on('exit', () => (entry.exited = true));
  started.push(entry);
  return entry;
}

/** SIGTERM to the process group, then SIGKILL after `graceMs` if it is still there. */
export async function stop(entry, graceMs = 5000) {
  if (entry.exited) return;
  const signal = (name) => {
    try {
      process.kill(-entry.pid, name);
    } catch {
      /* already gone */
    }
  };
  signal('SIGTERM');
  const deadline = Date.now() + graceMs;
  while (!entry.exited && Date.now() < deadline) await sleep(50);
  if (!entry.exited) signal('SIGKILL');
  const index = started.indexOf(entry);
  if (index >= 0) started.splice(index, 1);
}

export async function stopAll() {
  await Promise.all([...started].map((entry) => stop(entry, 3000)));
}

/** Synchronous last resort for process exit paths. */
export function killAllNow() {
  for (const entry of started) {
    try {
      if (!entry.exited) process.kill(-entry.pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
}

/**
 * A harness's log: each line timestamped, on stderr and appended to `outDir/run.log`. Also makes
 * Ctrl-C and every exit kill what the harness started.
 */
export function harnessLog(outDir) {
  const log = (message) => {
    const line = `[${new Date().toTimeString().slice(0, 8)}] ${message}`;
    process.stderr.write(line + '\n');
    fs.appendFileSync(path.join(outDir, 'run.log'), line + '\n');
  };
  process.on('SIGINT', () => {
    log('interrupted');
    killAllNow();
    process.exit(130);
  });
  process.on('exit', killAllNow);
  return log;
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves true once anything answers HTTP on `url`. */
export async function waitHttp(url, timeoutMs, entry) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (entry?.exited) return false;
    try {
      await fetch(url, { signal: AbortSignal.timeout(1000) });
      return true;
    } catch {
      await sleep(100);
    }
  }
  return false;
}

/** Resident set size of one process in KiB, from /proc (undefined once it is gone). */
export function rssKb(pid) {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = /VmRSS:\s+(\d+) kB/.exec(status);
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** CPU time (user + system) of one process in seconds. */
export function cpuSeconds(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

/**
 * Samples RSS every `intervalMs` until stopped.
 * @returns {{ stop(): { peakKb: number|null, medianKb: number|null, cpuPercent: number|null, cpuSeconds: number|null, samples: {t:number,kb:number}[] } }}
 */
export function watchProcess(pid, intervalMs = 250) {
  const startedAt = Date.now();
  const cpuAtStart = cpuSeconds(pid);
  /** @type {{t:number,kb:number}[]} */
  const samples = [];
  const take = () => {
    const kb = rssKb(pid);
    if (kb !== undefined) samples.push({ t: Date.now() - startedAt, kb });
  };
  take();
  const timer = setInterval(take, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      take();
      const cpuAtEnd = cpuSeconds(pid);
      const elapsed = (Date.now() - startedAt) / 1000;
      const sorted = samples.map((sample) => sample.kb).sort((a, b) => a - b);
      return {
        peakKb: sorted.length ? sorted[sorted.length - 1] : null,
        medianKb: sorted.length ? sorted[Math.floor(sorted.length / 2)] : null,
        cpuPercent: cpuAtStart !== undefined && cpuAtEnd !== undefined && elapsed > 0 ? Number((((cpuAtEnd - cpuAtStart) / elapsed) * 100).toFixed(1)) : null,
        cpuSeconds: cpuAtStart !== undefined && cpuAtEnd !== undefined ? cpuAtEnd - cpuAtStart : null,
        samples,
      };
    },
  };
}

/**
 * Runs a command to completion pinned to `cpu`, returning the JSON of its `BENCHJSON` line.
 * @returns {Promise<Record<string, unknown>>}
 */
export function runPinned(cpu, command, args, env = {}, timeoutMs = 600_000) {
  return new Promise((resolve) => {
    // A bash parent reports the command's CPU time afterwards: its cutime/cstime include the waited-for child.
    const script = '"$@"; read -r stat < /proc/$$/stat; echo "BENCHCHILDSTAT ${stat##*) }"';
    const child = spawn('taskset', ['-c', String(cpu), 'bash', '-c', script, 'bash', command, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (piece) => (output += piece));
    child.stderr.on('data', (piece) => (output += piece));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', () => {
      clearTimeout(timer);
      const line = output.split('\n').find((text) => text.startsWith('BENCHJSON '));
      const stat = output.split('\n').find((text) => text.startsWith('BENCHCHILDSTAT '));
      // After "pid (comm) ": fields from state on; cutime and cstime are the 14th and 15th of those.
      const fields = stat?.slice('BENCHCHILDSTAT '.length).split(' ') ?? [];
      const loadgenCpuSeconds = fields.length > 14 ? (Number(fields[13]) + Number(fields[14])) / 100 : null;
      if (line === undefined) resolve({ failed: true, output: output.slice(-500), loadgen_cpu_s: loadgenCpuSeconds });
      else resolve({ ...JSON.parse(line.slice('BENCHJSON '.length)), loadgen_cpu_s: loadgenCpuSeconds });
    });
  });
}

/** Machine load right now: the 1-minute load average and the busiest other processes. */
export function machineLoad() {
  const load = fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  return load;
}
