import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, type Environment } from '../../src/config/load-config.js';

/**
 * The operator's side of the API (docs/api.md, "Configuration"): a bad configuration file fails
 * with a message naming the field at fault, the environment overrides the file, and without a file
 * the gateway runs on defaults. The compiled CLI reports the same errors and exits non-zero.
 */

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
let directory: string;

beforeAll(() => {
  directory = mkdtempSync(path.join(tmpdir(), 'switchyard-config-'));
});
afterAll(() => {
  rmSync(directory, { recursive: true, force: true });
});

let fileCount = 0;
function writeConfig(text: string): string {
  const file = path.join(directory, `config-${++fileCount}.yaml`);
  writeFileSync(file, text);
  return file;
}

function loadError(file: string, environment: Environment = {}): ConfigError {
  let thrown: unknown;
  try {
    loadConfig({ file, environment });
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(ConfigError);
  return thrown as ConfigError;
}

const simProvider = `providers:\n  sim: { type: openai, base_url: "builtin:sim" }\n`;

describe('a bad configuration file', () => {
  it.each([
    ['a port that is not a number', 'server: { port: "abc" }\n', ['server.port']],
    ['a port out of range', 'server: { port: 70000 }\n', ['server.port']],
    ['a provider of an unknown type', 'providers:\n  mine: { type: nope }\n', ['providers.mine.type']],
    ['an unknown field', 'server: { prot: 8080 }\n', ['server', 'prot']],
    ['a model without routes', `${simProvider}models:\n  - id: lonely\n    routes: []\n`, ['models[0].routes']],
    ['a price given as a float', `${simProvider}models:\n  - id: m\n    routes: [{ provider: sim, model: x }]\n    price: { input_per_mtok: 0.1 }\n`, ['models[0].price.input_per_mtok']],
    ['an unknown output modality', `${simProvider}models:\n  - id: m\n    output_modality: audio\n    routes: [{ provider: sim, model: x }]\n`, ['models[0].output_modality']],
    ['a bad open_access mode', 'server: { open_access: sometimes }\n', ['server.open_access']],
    ['a route naming an unknown provider', `${simProvider}models:\n  - id: m1\n    routes: [{ provider: ghost, model: g }]\n`, ['models[0].routes[0].provider', 'ghost']],
    [
      'a duplicate alias',
      `${simProvider}models:\n  - id: m1\n    aliases: [shared]\n    routes: [{ provider: sim, model: a }]\n  - id: m2\n    aliases: [shared]\n    routes: [{ provider: sim, model: b }]\n`,
      ['models[1]', 'shared', 'm1'],
    ],
    ['an alias equal to another model id', `${simProvider}models:\n  - id: m1\n    routes: [{ provider: sim, model: a }]\n  - id: m2\n    aliases: [m1]\n    routes: [{ provider: sim, model: b }]\n`, ['models[1]', 'm1']],
    ['a duplicate model id', `${simProvider}models:\n  - id: m1\n    routes: [{ provider: sim, model: a }]\n  - id: m1\n    routes: [{ provider: sim, model: b }]\n`, ['models[1]', 'm1']],
    ['an unset ${VAR}', 'providers:\n  openai: { type: openai, api_key: "${SWITCHYARD_TEST_UNSET}" }\n', ['providers.openai.api_key', 'SWITCHYARD_TEST_UNSET']],
    ['an unset ${VAR} inside a list', `${simProvider}models:\n  - id: m\n    aliases: ["\${SWITCHYARD_TEST_UNSET}"]\n    routes: [{ provider: sim, model: x }]\n`, ['models[0].aliases[0]', 'SWITCHYARD_TEST_UNSET']],
    ['a top level that is a list', '- server\n- models\n', ['top level']],
    ['text that is not YAML', 'server: { port: 1\n', ['not valid YAML']],
  ])('fails on %s with a message naming the field', (_name, text, fragments) => {
    const file = writeConfig(text);
    const error = loadError(file);
    expect(error.message).toContain(file);
    for (const fragment of fragments) expect(error.message).toContain(fragment);
  });

  it('fails on a missing file with a message naming it', () => {
    const file = path.join(directory, 'does-not-exist.yaml');
    const error = loadError(file);
    expect(error.message).toContain(file);
    expect(error.message).toContain('ENOENT');
  });

  it('never puts a substituted secret into the message', () => {
    const file = writeConfig('providers:\n  openai: { type: openai, api_key: "${OPENAI_KEY_FOR_TEST}", timeout_ms: -1 }\n');
    const error = loadError(file, { OPENAI_KEY_FOR_TEST: 'sk-very-secret-value' });
    expect(error.message).toContain('providers.openai.timeout_ms');
    expect(error.message).not.toContain('sk-very-secret-value');
  });
});

describe('a good configuration file', () => {
  it('substitutes ${VAR} from the environment', () => {
    const file = writeConfig('providers:\n  openai: { type: openai, api_key: "${TEST_OPENAI_KEY}", base_url: "http://${TEST_HOST}/v1" }\n');
    const config = loadConfig({ file, environment: { TEST_OPENAI_KEY: 'sk-from-env', TEST_HOST: '127.0.0.1:9' } });
    expect(config.providers.openai).toMatchObject({ api_key: 'sk-from-env', base_url: 'http://127.0.0.1:9/v1' });
  });

  it('is found through SWITCHYARD_CONFIG when no file is given', () => {
    const file = writeConfig('server: { port: 4321 }\n');
    expect(loadConfig({ environment: { SWITCHYARD_CONFIG: file } }).server.port).toBe(4321);
  });

  it('lets DATABASE_URL and PORT override the file', () => {
    const file = writeConfig('server: { port: 4321 }\ndatabase: { url: "sqlite:./file.db" }\n');
    const config = loadConfig({ file, environment: { DATABASE_URL: 'postgres://user@db.example:5432/switchyard', PORT: '9999' } });
    expect(config.database.url).toBe('postgres://user@db.example:5432/switchyard');
    expect(config.server.port).toBe(9999);
    expect(config.server.host).toBe('127.0.0.1');
  });

  it('lets --port override PORT', () => {
    const file = writeConfig('server: { port: 4321 }\n');
    expect(loadConfig({ file, port: 1234, environment: { PORT: '9999' } }).server.port).toBe(1234);
  });

  it('refuses a PORT that is not a number, naming PORT', () => {
    const file = writeConfig('server: { port: 4321 }\n');
    let thrown: unknown;
    try {
      loadConfig({ file, environment: { PORT: 'eighty' } });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    expect((thrown as Error).message).toContain('PORT');
  });

  it('treats an empty file as all defaults, without models', () => {
    const config = loadConfig({ file: writeConfig(''), environment: {} });
    expect(config.server).toMatchObject({ host: '127.0.0.1', port: 8787, open_access: 'auto', discovery_requires_key: false });
    expect(config.models).toEqual([]);
  });
});

describe('without a configuration file', () => {
  it('starts on defaults: SQLite under ./data and the simulator text, image and video models', () => {
    const config = loadConfig({ environment: {} });
    expect(config.database.url).toBe('sqlite:./data/switchyard.db');
    expect(config.server).toMatchObject({ host: '127.0.0.1', port: 8787 });
    expect(config.models.map((model) => model.id)).toEqual(['sim-gpt', 'sim-claude', 'sim-gemini', 'sim-image', 'sim-video']);
    expect(Object.values(config.providers).every((provider) => provider.base_url === 'builtin:sim')).toBe(true);
  });

  it('adds a real provider whose usual key variable is set, and still honours the overrides', () => {
    const config = loadConfig({ environment: { ANTHROPIC_API_KEY: 'sk-ant-test', DATABASE_URL: 'sqlite::memory:', PORT: '0' } });
    expect(config.models.map((model) => model.id)).toContain('claude-sonnet-4-5');
    expect(config.providers.anthropic).toMatchObject({ type: 'anthropic', api_key: 'sk-ant-test' });
    expect(config.database.url).toBe('sqlite::memory:');
    expect(config.server.port).toBe(0);
  });
});

/** True when dist/ lacks the CLI or any compiled source is older than its TypeScript. */
function distIsStale(): boolean {
  const cliEntry = path.join(repositoryRoot, 'dist/cli/main.js');
  if (!existsSync(cliEntry)) return true;
  for (const folder of ['cli', 'config']) {
    for (const name of readdirSync(path.join(repositoryRoot, 'src', folder))) {
      if (!name.endsWith('.ts') || name.endsWith('.test.ts')) continue;
      const compiled = path.join(repositoryRoot, 'dist', folder, name.replace(/\.ts$/, '.js'));
      if (!existsSync(compiled) || statSync(compiled).mtimeMs < statSync(path.join(repositoryRoot, 'src', folder, name)).mtimeMs) return true;
    }
  }
  return false;
}

interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function runCli(args: readonly string[], environment: Record<string, string> = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(repositoryRoot, 'bin/switchyard.js'), ...args], {
      cwd: directory,
      env: { PATH: process.env.PATH ?? '', ...environment },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    // A config error must stop the process at once; a hang means it started serving.
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('the compiled CLI', () => {
  beforeAll(async () => {
    if (!distIsStale()) return;
    // Build only when needed: tsc emits even when unrelated work in progress has type errors.
    await new Promise<void>((resolve) => {
      const build = spawn(process.execPath, [path.join(repositoryRoot, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], {
        cwd: repositoryRoot,
        stdio: 'ignore',
      });
      build.on('close', () => resolve());
    });
    expect(existsSync(path.join(repositoryRoot, 'dist/cli/main.js'))).toBe(true);
  }, 180_000);

  it.each([
    ['server.port: "abc"', 'server: { port: "abc" }\n', 'server.port'],
    ['a provider of type nope', 'providers:\n  mine: { type: nope }\n', 'providers.mine.type'],
    ['a route to an unknown provider', `${simProvider}models:\n  - id: m1\n    routes: [{ provider: ghost, model: g }]\n`, 'models[0].routes[0].provider'],
    ['an unset ${VAR}', 'providers:\n  openai: { type: openai, api_key: "${SWITCHYARD_TEST_UNSET}" }\n', 'providers.openai.api_key'],
  ])('serve --config with %s exits non-zero naming the field on stderr', async (_name, text, field) => {
    const file = writeConfig(text);
    const result = await runCli(['serve', '--config', file]);
    expect(result.code).not.toBe(0);
    expect(result.code).not.toBeNull();
    expect(result.stderr).toContain(field);
    expect(result.stderr).toContain(file);
    // An operator's mistake is reported in one message, not as a stack trace.
    expect(result.stderr).not.toMatch(/\n\s+at /);
  }, 20_000);

  it('serve exits non-zero when SWITCHYARD_CONFIG names a bad file', async () => {
    const file = writeConfig('server: { port: "abc" }\n');
    const result = await runCli(['serve'], { SWITCHYARD_CONFIG: file });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('server.port');
  }, 20_000);

  it('serve exits non-zero on a PORT that is not a number', async () => {
    const result = await runCli(['serve', '--config', writeConfig('')], { PORT: 'eighty' });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('PORT');
  }, 20_000);
});
