import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnGateway, zeroConfigEnvironment, type SpawnedGateway } from '../support/spawned-gateway.js';

const run = promisify(execFile);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** Installing compiles better-sqlite3 from source when no prebuilt binary can be fetched: minutes on two cores. */
const installTimeoutMs = 12 * 60_000;

/**
 * npm settings the surrounding `npm test` exported to its children; a nested npm would take
 * them as its own (a dry run, another prefix…). The cache and user config stay: they are where
 * the already downloaded dependencies are.
 */
function npmEnvironment(): NodeJS.ProcessEnv {
  const kept = new Set(['npm_config_cache', 'npm_config_userconfig', 'npm_config_registry']);
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_') || kept.has(name.toLowerCase())));
}

interface PackResult {
  readonly filename: string;
  readonly files: readonly { readonly path: string }[];
}

/**
 * The package as a user gets it: packed, installed from the tarball into an empty prefix, and
 * started from a directory that never saw the sources, with no configuration.
 */
describe('the packed package', () => {
  let scratch: string;
  let packed: PackResult;
  let gateway: SpawnedGateway | undefined;
  let workDirectory: string;

  beforeAll(async () => {
    if (!existsSync(path.join(root, 'dist', 'cli', 'main.js'))) throw new Error('run `npm run build` first (npm test does)');
    scratch = mkdtempSync(path.join(tmpdir(), 'switchyard-package-'));
    // Scripts are skipped: `prepare` rebuilds dist from scratch, which would pull it from under
    // the other suites running beside this one; npm test has just built it.
    const { stdout } = await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', scratch], { cwd: root, env: npmEnvironment() });
    packed = (JSON.parse(stdout) as PackResult[])[0]!;
  }, 120_000);

  afterAll(async () => {
    await gateway?.stop();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('carries the command and the built code, and nothing of the sources, tests or local data', () => {
    const paths = packed.files.map((file) => file.path);
    expect(paths).toEqual(
      expect.arrayContaining(['package.json', 'README.md', 'bin/switchyard.js', 'dist/cli/main.js', 'dist/storage/migrations/initial-schema.js', 'dist/console/index.html']),
    );
    // The built console: its page, icon, and one hashed script and stylesheet.
    expect(paths.filter((file) => /^dist\/console\/assets\/app-[A-Z0-9]+\.(js|css)$/.test(file))).toHaveLength(2);
    const unexpected = paths.filter(
      (file) =>
        !/^(package\.json|README\.md|bin\/switchyard\.js|dist\/.+\.js|dist\/console\/(index\.html|favicon\.svg|assets\/app-[A-Z0-9]+\.css))$/.test(file) ||
        /\.test\.js$|test-support|-contract/.test(file),
    );
    expect(unexpected).toEqual([]);
  });

  it('installs into an empty prefix and serves a chat completion from any directory', async () => {
    const prefix = path.join(scratch, 'prefix');
    mkdirSync(prefix);
    await run('npm', ['install', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', path.join(scratch, packed.filename)], {
      cwd: prefix,
      env: npmEnvironment(),
      timeout: installTimeoutMs,
      maxBuffer: 64 * 1024 * 1024,
    });
    workDirectory = path.join(scratch, 'elsewhere');
    mkdirSync(workDirectory);
    gateway = await spawnGateway(path.join(prefix, 'node_modules', '.bin', 'switchyard'), ['serve', '--port', '0'], {
      cwd: workDirectory,
      env: zeroConfigEnvironment(),
      urlPattern: /"url":"(http:\/\/[^"]+)"/,
    });
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'not-needed-yet', maxRetries: 0 });
    const completion = await client.chat.completions.create({ model: 'sim-gpt', messages: [{ role: 'user', content: 'hello from an installed package' }] });
    expect(completion.choices[0]?.message.content).toContain('hello from an installed package');
    const consolePage = await fetch(`${gateway.url}/console/keys`);
    expect(consolePage.status).toBe(200);
    expect(await consolePage.text()).toContain('<script type="module" src="/console/assets/app-');
    expect(readdirSync(path.join(workDirectory, 'data'))).toContain('switchyard.db');
    expect(await gateway.stop()).toBe(0);
  }, installTimeoutMs + 60_000);
});
