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
import { closeSync, mkdtempSync, openSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { delay, failure, freePort, readLog, runBesideServer, signal } from './beside-throwaway-server.js';

const startupTimeoutMilliseconds = 10_000;
const shutdownTimeoutMilliseconds = 5_000;
const startAttempts = 3;

const state = { temporaryDirectory: undefined, server: undefined };

const fail = (message) => failure('with-redis', message);

function findBinary() {
  const found = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' });
  const binary = found.stdout.trim();
  if (found.status !== 0 || binary === '') {
    throw fail('no redis-server binary on the PATH. Install it with `apt-get install redis-server`.');
  }
  return binary;
}

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

runBesideServer('with-redis', {
  async start() {
    const binary = findBinary();
    state.temporaryDirectory = mkdtempSync(path.join(os.tmpdir(), 'switchyard-redis-'));
    const port = await startServer(binary);
    return { TEST_REDIS_URL: `redis://127.0.0.1:${port}` };
  },
  stop: stopServer,
  killNow() {
    if (state.server !== undefined) signal(state.server.process.pid, 'SIGKILL');
  },
  temporaryDirectory: () => state.temporaryDirectory,
});
