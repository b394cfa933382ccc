import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outputLines, runUntilExit } from '../support/run-until-exit.js';

/**
 * What a newcomer sees when `switchyard serve` cannot start: one line saying why, and the process
 * gone with a non-zero code (a process that stays up without listening looks like a hung gateway).
 * `--debug` adds the stack for a bug report.
 */

let directory: string;
let fileCount = 0;

beforeAll(() => {
  directory = mkdtempSync(path.join(tmpdir(), 'switchyard-start-failures-'));
});
afterAll(() => {
  rmSync(directory, { recursive: true, force: true });
});

function writeConfig(text: string): string {
  const file = path.join(directory, `config-${++fileCount}.yaml`);
  writeFileSync(file, text);
  return file;
}

/** A port something else already listens on, held until `close`. */
async function occupiedPort(): Promise<{ port: number; close: () => Promise<void> }> {
  const holder: Server = createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  const address = holder.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return { port: address.port, close: () => new Promise((resolve) => holder.close(() => resolve())) };
}

/** A port nothing listens on: bound once to learn a free number, then released. */
async function closedPort(): Promise<number> {
  const { port, close } = await occupiedPort();
  await close();
  return port;
}

const stackFrame = /^\s+at /m;
/** Node takes about a second to load the CLI on a busy machine; a hung start never ends. */
const promptExitMs = 8_000;

function expectOneLineFailure(run: Awaited<ReturnType<typeof runUntilExit>>): string {
  expect(run.code, `still running after ${Math.round(run.elapsedMs)} ms:\n${run.stdout}${run.stderr}`).not.toBeNull();
  expect(run.code).not.toBe(0);
  expect(run.elapsedMs).toBeLessThan(promptExitMs);
  const lines = outputLines(run);
  expect(lines, lines.join('\n')).toHaveLength(1);
  expect(run.stderr).not.toMatch(stackFrame);
  return lines[0] as string;
}

describe('serve on a port already in use', () => {
  it('prints one line naming the address and exits non-zero at once', async () => {
    const holder = await occupiedPort();
    try {
      const run = await runUntilExit(['serve', '--port', String(holder.port)], { cwd: directory, environment: { DATABASE_URL: 'sqlite::memory:' } });
      const line = expectOneLineFailure(run);
      expect(line).toContain(`127.0.0.1:${holder.port}`);
      expect(line).toMatch(/already in use/);
    } finally {
      await holder.close();
    }
  }, 20_000);

  it('shows the stack with --debug', async () => {
    const holder = await occupiedPort();
    try {
      const run = await runUntilExit(['serve', '--debug', '--port', String(holder.port)], { cwd: directory, environment: { DATABASE_URL: 'sqlite::memory:' } });
      expect(run.code).not.toBeNull();
      expect(run.code).not.toBe(0);
      expect(run.stderr).toContain('EADDRINUSE');
      expect(run.stderr).toMatch(stackFrame);
    } finally {
      await holder.close();
    }
  }, 20_000);
});

describe('serve with a database it cannot reach', () => {
  it('prints one line naming the database without its secrets and exits non-zero', async () => {
    const port = await closedPort();
    const databaseUrl = `postgres://switchyard:hunter2-password@127.0.0.1:${port}/switchyard?sslpassword=ssl-key-passphrase&application_name=gw`;
    const run = await runUntilExit(['serve', '--port', '0'], { cwd: directory, environment: { DATABASE_URL: databaseUrl } });
    const line = expectOneLineFailure(run);
    expect(line).toContain(`127.0.0.1:${port}`);
    expect(line).toMatch(/database/i);
    expect(`${run.stdout}${run.stderr}`).not.toContain('hunter2-password');
    expect(`${run.stdout}${run.stderr}`).not.toContain('ssl-key-passphrase');
  }, 20_000);

  it('says so in one line for a SQLite file in a directory that cannot be made', async () => {
    const blocker = path.join(directory, 'not-a-directory');
    writeFileSync(blocker, 'a file where the data directory should be');
    const run = await runUntilExit(['serve', '--port', '0'], { cwd: directory, environment: { DATABASE_URL: `sqlite:${blocker}/switchyard.db` } });
    const line = expectOneLineFailure(run);
    expect(line).toContain(blocker);
  }, 20_000);
});

describe('serve with a bad configuration file', () => {
  it('prints each problem on one line naming the fields and exits non-zero', async () => {
    const file = writeConfig('server: { port: "abc", open_access: sometimes }\n');
    const run = await runUntilExit(['serve', '--config', file], { cwd: directory });
    const line = expectOneLineFailure(run);
    expect(line).toContain(file);
    expect(line).toContain('server.port');
    expect(line).toContain('server.open_access');
  }, 20_000);

  it('refuses a base_url without a scheme at load, naming the field', async () => {
    const file = writeConfig(
      'providers:\n  upstream: { type: openai, base_url: "api.example.com/v1", api_key: sk-test }\nmodels:\n  - id: m\n    routes: [{ provider: upstream, model: gpt-4.1 }]\n',
    );
    const run = await runUntilExit(['serve', '--config', file, '--port', '0'], { cwd: directory, environment: { DATABASE_URL: 'sqlite::memory:' } });
    const line = expectOneLineFailure(run);
    expect(line).toContain('providers.upstream.base_url');
    expect(line).toContain('https://');
  }, 20_000);

  it.each([
    ['host:port', 'localhost:11434/v1'],
    ['a scheme other than http', 'ftp://api.example.com/v1'],
  ])('refuses a base_url that is %s', async (_name, baseUrl) => {
    const file = writeConfig(`providers:\n  local: { type: openai-compatible, base_url: "${baseUrl}" }\n`);
    const run = await runUntilExit(['serve', '--config', file, '--port', '0'], { cwd: directory, environment: { DATABASE_URL: 'sqlite::memory:' } });
    expect(expectOneLineFailure(run)).toContain('providers.local.base_url');
  }, 20_000);

  it('refuses a route to a provider named like a built-in property, naming the route', async () => {
    const file = writeConfig('providers:\n  sim: { type: openai, base_url: "builtin:sim" }\nmodels:\n  - id: m\n    routes: [{ provider: constructor, model: gpt }]\n');
    const run = await runUntilExit(['serve', '--config', file, '--port', '0'], { cwd: directory, environment: { DATABASE_URL: 'sqlite::memory:' } });
    const line = expectOneLineFailure(run);
    expect(line).toContain('models[0].routes[0].provider');
    expect(line).toContain('"constructor"');
  }, 20_000);

  it('refuses a provider named __proto__, naming it', async () => {
    const file = writeConfig('providers:\n  __proto__: { type: openai, base_url: "builtin:sim" }\nmodels:\n  - id: m\n    routes: [{ provider: __proto__, model: gpt }]\n');
    const run = await runUntilExit(['serve', '--config', file, '--port', '0'], { cwd: directory, environment: { DATABASE_URL: 'sqlite::memory:' } });
    const line = expectOneLineFailure(run);
    expect(line).toContain('providers.__proto__');
  }, 20_000);
});

describe('a command other than serve', () => {
  it('reports a database it cannot open in one line', async () => {
    const blocker = path.join(directory, 'also-not-a-directory');
    writeFileSync(blocker, 'a file');
    const run = await runUntilExit(['keys', 'list'], { cwd: directory, environment: { DATABASE_URL: `sqlite:${blocker}/switchyard.db` } });
    expectOneLineFailure(run);
  }, 20_000);
});

describe('serve with a stray argument', () => {
  it('refuses a port given without --port instead of starting on another one', async () => {
    const run = await runUntilExit(['serve', '9000'], { cwd: directory, environment: { DATABASE_URL: 'sqlite::memory:' } });
    const line = expectOneLineFailure(run);
    expect(line).toContain("'9000'");
    expect(line).toContain('--port N');
  }, 20_000);
});

describe('a command line mistake', () => {
  it.each([
    ['an unknown command', ['serv'], "unknown command 'serv'"],
    ['an unknown flag', ['serve', '--prot', '8080'], '--prot'],
    ['a port out of range', ['serve', '--port', '70000'], '--port'],
  ])('is said in one line: %s', async (_name, args, fragment) => {
    const run = await runUntilExit(args, { cwd: directory });
    expect(expectOneLineFailure(run)).toContain(fragment);
    expect(run.code).toBe(2);
  }, 20_000);
});
