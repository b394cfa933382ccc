#!/usr/bin/env node
/**
 * Runs a command next to a throwaway Redis server.
 *
 *   node scripts/with-redis.js <command...>
 *
 * Starts Debian's `redis-server` (package redis-server) in a temporary directory, on 127.0.0.1 and
 * a free port, with no persistence (`--save ''`, no append-only file). The command runs with
 * TEST_REDIS_URL=redis://127.0.0.1:<port> in its environment; its exit code becomes ours. The
 * server is stopped and the directory removed afterwards, also on SIGINT/SIGTERM. Node built-ins
 * only: this runs before anything is built.
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const startupTimeoutMilliseconds = 10_000;
const shutdownTimeoutMilliseconds = 5_000;
const startAttempts = 3;

const state = { temporaryDirectory: undefined, server: undefined, command: undefined, cleanedUp: false };

class ExitRequest extends Error {
  constructor(code) {
    super(`exit ${code}`);
    this.code = code;
  }
}

function fail(message) {
  process.stderr.write(`with-redis: ${message}\n`);
  return new ExitRequest(1);
}

function findBinary() {
  const found = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' });
  const binary = found.stdout.trim();
  if (found.status !== 0 || binary === '') {
    throw fail('no redis-server binary on the PATH. Install it with `apt-get install redis-server`.');
  }
  return binary;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const delay = (milliseconds) => new Promise((resolve) => setTimeout(resolve, milliseconds));

/** True once the server answers PING with +PONG. */
function answersPing(port) {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let reply = '';
    const done = (result) => {
      socket.destroy();
      resolve(result);
    };
    socket.setTimeout(1_000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      reply += chunk.toString('utf8');
      if (reply.includes('\r\n')) done(reply.startsWith('+PONG'));
    });
  });
}

function readLog(logFile) {
  try {
    return readFileSync(logFile, 'utf8').trim();
  } catch {
    return '(no server log)';
  }
}

async function startServer(binary) {
  const logFile = path.join(state.temporaryDirectory, 'redis.log');
  for (let attempt = 1; attempt <= startAttempts; attempt += 1) {
    // Another process may take the port between our probe and the server's bind; retry then.
    const port = await freePort();
    const log = openSync(logFile, 'a');
    // Detached: a Ctrl-C reaches the command under test, not the server; we stop it ourselves afterwards.
    const server = spawn(
      binary,
      ['--port', String(port), '--bind', '127.0.0.1', '--dir', state.temporaryDirectory, '--save', '', '--appendonly', 'no', '--daemonize', 'no'],
      { cwd: state.temporaryDirectory, stdio: ['ignore', log, log], detached: true },
    );
    closeSync(log);
    const exited = new Promise((resolve) => server.once('exit', () => resolve(true)));
    server.once('error', () => {});
    state.server = { process: server, exited };
    const deadline = Date.now() + startupTimeoutMilliseconds;
    while (Date.now() < deadline) {
      if (await Promise.race([exited, delay(50).then(() => false)])) break;
      if (await answersPing(port)) return port;
    }
    await stopServer();
    if (attempt === startAttempts || Date.now() >= deadline) throw fail(`redis-server did not start (port ${port}). Server log:\n${readLog(logFile)}`);
  }
  throw fail('redis-server did not start.');
}

function signal(pid, name) {
  try {
    process.kill(pid, name);
  } catch {
    // Already gone.
  }
}

async function stopServer() {
  const server = state.server;
  if (server === undefined) return;
  state.server = undefined;
  if (server.process.exitCode !== null || server.process.signalCode !== null) return;
  signal(server.process.pid, 'SIGTERM');
  const stopped = await Promise.race([server.exited, delay(shutdownTimeoutMilliseconds).then(() => false)]);
  if (!stopped) {
    signal(server.process.pid, 'SIGKILL');
    await Promise.race([server.exited, delay(2_000)]);
  }
}

let cleanUpPromise;

function cleanUp() {
  cleanUpPromise ??= (async () => {
    await stopServer();
    if (state.temporaryDirectory !== undefined) rmSync(state.temporaryDirectory, { recursive: true, force: true });
    state.cleanedUp = true;
  })();
  return cleanUpPromise;
}

function runCommand(argv, port) {
  const environment = { ...process.env, TEST_REDIS_URL: `redis://127.0.0.1:${port}` };
  return new Promise((resolve) => {
    const command = spawn(argv[0], argv.slice(1), { stdio: 'inherit', env: environment });
    state.command = command;
    command.once('error', (error) => {
      process.stderr.write(`with-redis: could not run ${argv[0]}: ${error.message}\n`);
      resolve(127);
    });
    command.once('exit', (code, signalName) => {
      state.command = undefined;
      resolve(code ?? 128 + (os.constants.signals[signalName] ?? 0));
    });
  });
}

function installSignalHandlers() {
  let interrupted = false;
  for (const signalName of ['SIGINT', 'SIGTERM']) {
    process.on(signalName, () => {
      if (state.command !== undefined && !interrupted) {
        interrupted = true;
        state.command.kill(signalName);
        return;
      }
      void cleanUp().finally(() => process.exit(128 + os.constants.signals[signalName]));
    });
  }
  process.on('exit', () => {
    if (state.cleanedUp) return;
    if (state.server !== undefined) signal(state.server.process.pid, 'SIGKILL');
    if (state.temporaryDirectory !== undefined) rmSync(state.temporaryDirectory, { recursive: true, force: true });
  });
}

async function main() {
  const argv = process.argv.slice(2);
  if (argv.length === 0) {
    process.stderr.write('usage: node scripts/with-redis.js <command> [args...]\n');
    return 2;
  }
  installSignalHandlers();
  const binary = findBinary();
  state.temporaryDirectory = mkdtempSync(path.join(os.tmpdir(), 'switchyard-redis-'));
  try {
    const port = await startServer(binary);
    return await runCommand(argv, port);
  } finally {
    await cleanUp();
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    if (!(error instanceof ExitRequest)) process.stderr.write(`with-redis: ${error?.stack ?? error}\n`);
    void cleanUp().finally(() => process.exit(error instanceof ExitRequest ? error.code : 1));
  },
);
