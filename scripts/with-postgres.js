#!/usr/bin/env node
/**
 * Runs a command next to a throwaway PostgreSQL server.
 *
 *   node scripts/with-postgres.js <command...>
 *
 * Starts a private server from Debian's binaries (/usr/lib/postgresql/<version>/bin, newest
 * version) in a temporary directory, on 127.0.0.1 and a free port, with fsync off and trust
 * authentication. The command runs with TEST_POSTGRES_URL=postgres://postgres@127.0.0.1:<port>/postgres
 * in its environment; its exit code becomes ours. The server is stopped and the directory
 * removed afterwards, also on SIGINT/SIGTERM.
 *
 * PostgreSQL refuses to run as root, so under uid 0 the server runs as the `postgres` user
 * (created by Debian's package) or, when that user is missing, as a system user `switchyard-pg`
 * created on the spot. Node built-ins only: this runs before anything is built.
 */
import { execFile, spawn, spawnSync } from 'node:child_process';
import { chownSync, closeSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { delay, failure, freePort, readLog, runBesideServer, signal } from './beside-throwaway-server.js';

const debianPostgresRoot = '/usr/lib/postgresql';
const databaseUser = 'postgres';
const fallbackServiceUser = 'switchyard-pg';
const startupTimeoutMilliseconds = 30_000;
const shutdownTimeoutMilliseconds = 15_000;
const startAttempts = 3;

/** Everything that must be undone on the way out. */
const state = {
  temporaryDirectory: undefined,
  dataDirectory: undefined,
  /** The process we spawned for the server (runuser, or postgres itself when not root). */
  server: undefined,
};

const fail = (message) => failure('with-postgres', message);

function findBinaryDirectory() {
  const versions = existsSync(debianPostgresRoot)
    ? readdirSync(debianPostgresRoot)
        .filter((name) => /^\d+(\.\d+)?$/.test(name))
        .filter((name) => ['postgres', 'initdb', 'pg_isready'].every((tool) => existsSync(path.join(debianPostgresRoot, name, 'bin', tool))))
        .sort((left, right) => Number(right) - Number(left))
    : [];
  if (versions.length === 0) {
    throw fail(
      `no PostgreSQL server binaries found under ${debianPostgresRoot}/*/bin. ` +
        'Install them with `apt-get install postgresql` (the server package, not only the client).',
    );
  }
  return path.join(debianPostgresRoot, versions[0], 'bin');
}

function lookUpUser(name) {
  const uid = spawnSync('id', ['-u', name], { encoding: 'utf8' });
  const gid = spawnSync('id', ['-g', name], { encoding: 'utf8' });
  if (uid.status !== 0 || gid.status !== 0) return undefined;
  return { name, uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/** Under root, the unprivileged user the server runs as; undefined when we are not root. */
function serviceUser() {
  if (process.getuid?.() !== 0) return undefined;
  const existing = lookUpUser('postgres') ?? lookUpUser(fallbackServiceUser);
  if (existing !== undefined) return existing;
  const created = spawnSync('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', fallbackServiceUser], {
    encoding: 'utf8',
  });
  const user = lookUpUser(fallbackServiceUser);
  if (created.status !== 0 || user === undefined) {
    throw fail(`running as root and could not create the user ${fallbackServiceUser}: ${created.stderr || created.error?.message || ''}`);
  }
  return user;
}

/** The argv that runs a server binary as the service user (PostgreSQL will not run as root). */
function asServiceUser(user, binary, args) {
  return user === undefined ? [binary, ...args] : ['runuser', '-u', user.name, '--', binary, ...args];
}

function isReady(binaryDirectory, port) {
  return new Promise((resolve) => {
    execFile(
      path.join(binaryDirectory, 'pg_isready'),
      ['-q', '-h', '127.0.0.1', '-p', String(port), '-U', databaseUser, '-d', 'postgres'],
      (error) => resolve(error === null),
    );
  });
}

function initializeDataDirectory(binaryDirectory, user) {
  const [program, ...args] = asServiceUser(user, path.join(binaryDirectory, 'initdb'), [
    '-D',
    state.dataDirectory,
    '-A',
    'trust',
    '-U',
    databaseUser,
    '-E',
    'UTF8',
    '--locale=C',
    '--no-sync',
  ]);
  const result = spawnSync(program, args, { cwd: state.temporaryDirectory, encoding: 'utf8' });
  if (result.status !== 0) {
    throw fail(`initdb failed:\n${result.stdout ?? ''}${result.stderr ?? ''}${result.error?.message ?? ''}`);
  }
}

/** Starts the server and resolves with its port once it accepts connections. */
async function startServer(binaryDirectory, user) {
  const logFile = path.join(state.temporaryDirectory, 'postgres.log');
  for (let attempt = 1; attempt <= startAttempts; attempt += 1) {
    // Another process may take the port between our probe and the server's bind; retry then.
    const port = await freePort();
    const [program, ...args] = asServiceUser(user, path.join(binaryDirectory, 'postgres'), [
      '-D',
      state.dataDirectory,
      '-h',
      '127.0.0.1',
      '-p',
      String(port),
      '-k',
      state.temporaryDirectory,
      '-c',
      'fsync=off',
      '-c',
      'synchronous_commit=off',
      '-c',
      'full_page_writes=off',
      '-c',
      'max_connections=200',
    ]);
    const log = openSync(logFile, 'a');
    // Detached: a Ctrl-C in the terminal reaches the command under test, not the server, so the
    // command can finish with its database still there; we stop the server ourselves afterwards.
    const server = spawn(program, args, { cwd: state.temporaryDirectory, stdio: ['ignore', log, log], detached: true });
    closeSync(log);
    const exited = new Promise((resolve) => server.once('exit', () => resolve(true)));
    server.once('error', () => {});
    state.server = { process: server, exited };
    const deadline = Date.now() + startupTimeoutMilliseconds;
    while (Date.now() < deadline) {
      if (await Promise.race([exited, delay(100).then(() => false)])) break;
      if (await isReady(binaryDirectory, port)) return port;
    }
    await stopServer();
    if (attempt === startAttempts || Date.now() >= deadline) {
      throw fail(`PostgreSQL did not start (port ${port}). Server log:\n${readLog(logFile)}`);
    }
  }
  throw fail('PostgreSQL did not start.');
}

/** The postmaster's pid, from the file it writes; the spawned pid is runuser's under root. */
function postmasterPid() {
  try {
    const pid = Number(readFileSync(path.join(state.dataDirectory, 'postmaster.pid'), 'utf8').split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

async function stopServer() {
  const server = state.server;
  if (server === undefined) return;
  state.server = undefined;
  if (server.process.exitCode !== null || server.process.signalCode !== null) return;
  const pid = postmasterPid() ?? server.process.pid;
  // SIGINT is PostgreSQL's "fast" shutdown: disconnect clients, then exit cleanly.
  signal(pid, 'SIGINT');
  const stopped = await Promise.race([server.exited, delay(shutdownTimeoutMilliseconds).then(() => false)]);
  if (!stopped) {
    signal(pid, 'SIGKILL');
    signal(server.process.pid, 'SIGKILL');
    await Promise.race([server.exited, delay(2_000)]);
  }
}

runBesideServer('with-postgres', {
  async start() {
    const binaryDirectory = findBinaryDirectory();
    const user = serviceUser();
    state.temporaryDirectory = mkdtempSync(path.join(os.tmpdir(), 'switchyard-pg-'));
    state.dataDirectory = path.join(state.temporaryDirectory, 'data');
    if (user !== undefined) chownSync(state.temporaryDirectory, user.uid, user.gid);
    initializeDataDirectory(binaryDirectory, user);
    const port = await startServer(binaryDirectory, user);
    return { TEST_POSTGRES_URL: `postgres://${databaseUser}@127.0.0.1:${port}/postgres` };
  },
  stop: stopServer,
  killNow() {
    const pid = state.server === undefined ? undefined : (postmasterPid() ?? state.server.process.pid);
    if (pid !== undefined) signal(pid, 'SIGKILL');
  },
  temporaryDirectory: () => state.temporaryDirectory,
});
