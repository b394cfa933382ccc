import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { statSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { zeroConfigEnvironment } from '../support/spawned-gateway.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The README's quick start from a clone: `npm start -- --port N` or `PORT=N npm start` serves on
 * that port (and builds first only when dist/ is stale); `npm start --port N`, which npm keeps for
 * itself, is refused saying what to type instead of starting on another port.
 */

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

interface NpmRun {
  readonly child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
  /** Ends npm and the gateway under it (they share a process group). */
  stop(): Promise<number | null>;
}

function npmStart(args: readonly string[], environment: Record<string, string> = {}): NpmRun {
  // Own process group, so the shell npm runs and the gateway under it are stopped together.
  const child = spawn('npm', ['start', '--silent', ...args], {
    cwd: root,
    env: zeroConfigEnvironment({ DATABASE_URL: 'sqlite::memory:', SWITCHYARD_LOG_FORMAT: 'readable', ...environment }),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    output: () => output,
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
      return exited;
    },
  };
}

async function listeningUrl(run: NpmRun, timeoutMs: number): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const url = /^switchyard listening on (http:\/\/\S+)/m.exec(run.output())?.[1];
    if (url !== undefined) return url;
    if (run.child.exitCode !== null) throw new Error(`npm start exited with ${run.child.exitCode}:\n${run.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`npm start did not listen within ${timeoutMs} ms:\n${run.output()}`);
}

/** A stale dist/ is rebuilt first (a minute on a busy machine); a fresh one starts in seconds. */
const startTimeoutMs = 150_000;

describe('npm start from a clone', () => {
  it.each([
    ['npm start -- --port N', (port: number) => ({ args: ['--', '--port', String(port)], environment: {} })],
    ['PORT=N npm start', (port: number) => ({ args: [], environment: { PORT: String(port) } })],
  ])('%s serves on port N', async (_name, invocation) => {
    const port = await freePort();
    const { args, environment } = invocation(port);
    const run = npmStart(args, environment);
    try {
      const url = await listeningUrl(run, startTimeoutMs);
      expect(url).toBe(`http://127.0.0.1:${port}`);
      const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: 'not-needed-yet', maxRetries: 0 });
      const completion = await client.chat.completions.create({ model: 'sim-gpt', messages: [{ role: 'user', content: 'hello from npm start' }] });
      expect(completion.choices[0]?.message.content).toContain('hello from npm start');
    } finally {
      await run.stop();
    }
  }, startTimeoutMs + 30_000);

  it('does not build again when dist/ is up to date', async () => {
    // Bring dist/ up to date first (the runs above have, unless this test runs alone).
    expect(spawnSync(process.execPath, [path.join(root, 'scripts/build-if-stale.js')], { cwd: root, stdio: 'ignore' }).status).toBe(0);
    const builtAt = statSync(path.join(root, 'dist/cli/main.js')).mtimeMs;
    const run = npmStart(['--', '--port', String(await freePort())]);
    try {
      await listeningUrl(run, 30_000);
      expect(run.output()).not.toContain('building');
      expect(statSync(path.join(root, 'dist/cli/main.js')).mtimeMs).toBe(builtAt);
    } finally {
      await run.stop();
    }
  }, startTimeoutMs + 60_000);

  it.each([
    ['npm start --port N', (port: number) => ['--port', String(port)], 'npm start -- --port N'],
    ['npm start --port=N', (port: number) => [`--port=${port}`], 'npm start -- --port <the port>'],
  ])('refuses %s, which npm keeps for itself, saying what to type', async (_name, args, advice) => {
    const port = await freePort();
    const run = npmStart(args(port));
    const code = await Promise.race([run.exited, new Promise<'running'>((resolve) => setTimeout(() => resolve('running'), 20_000))]);
    await run.stop();
    expect(code, run.output()).not.toBe('running');
    expect(code).not.toBe(0);
    expect(run.output()).toContain(advice.replace('<the port>', String(port)));
    expect(run.output()).not.toContain('switchyard listening');
  }, 40_000);
});
