// How long the gateway takes from spawn to its first answered call, and its RSS once idle: each
// start is a fresh process on a fresh ledger (no keys, so the call goes through open access), on
// the gateway's core, with the fake upstream already up.
import fs from 'node:fs';
import path from 'node:path';
import { median } from './statistics.mjs';
import { rssKb, sleep, startPinned, stop } from './processes.mjs';

const pollMs = 10;

/** Spawn → first 200 of a real chat completion, or null when none came within `timeoutMs`. */
async function firstAnswerMs(url, body, startedAt, entry, timeoutMs) {
  while (Date.now() - startedAt < timeoutMs && !entry.exited) {
    try {
      const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body, signal: AbortSignal.timeout(5000) });
      await response.arrayBuffer();
      if (response.status === 200) return Date.now() - startedAt;
    } catch {
      // not listening yet
    }
    await sleep(pollMs);
  }
  return null;
}

/**
 * @param {{ cli: string, config: string, runs: number, env: Record<string,string>, cpu: string, port: number,
 *           workDir: string, body: string, nodeArgs?: string[], idleAfterMs?: number }} options
 * @returns {Promise<{ start_to_first_answer_ms: number|null, idle_fresh_kb: number|null, starts: { ms: number|null, kb: number|null }[] }>}
 */
export async function measureStartAndIdle({ cli, config, runs, env, cpu, port, workDir, body, nodeArgs = [], idleAfterMs = 2000 }) {
  const starts = [];
  for (let run = 1; run <= runs; run += 1) {
    const ledger = path.join(workDir, `start-${run}.db`);
    const startedAt = Date.now();
    const entry = startPinned(`gateway-start-${run}`, cpu, 'node', [...nodeArgs, cli, 'serve', '--config', config, '--port', String(port)],
      { ...env, DATABASE_URL: `sqlite:${ledger}` }, path.join(workDir, `start-${run}.log`));
    const ms = await firstAnswerMs(`http://127.0.0.1:${port}/v1/chat/completions`, body, startedAt, entry, 30_000);
    let kb = null;
    if (ms !== null) {
      await sleep(idleAfterMs);
      kb = rssKb(entry.pid) ?? null;
    }
    await stop(entry, 10_000);
    for (const suffix of ['', '-wal', '-shm']) fs.rmSync(ledger + suffix, { force: true });
    starts.push({ ms, kb });
  }
  const measured = (field) => {
    const values = starts.map((start) => start[field]).filter((value) => value !== null);
    return values.length ? median(values) : null;
  };
  return { start_to_first_answer_ms: measured('ms'), idle_fresh_kb: measured('kb'), starts };
}
