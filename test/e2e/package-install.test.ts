import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPackageRegistry } from '../support/package-registry.js';
import { spawnGateway, zeroConfigEnvironment, type SpawnedGateway } from '../support/spawned-gateway.js';

const run = promisify(execFile);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const lockPath = path.join(root, 'npm-shrinkwrap.json');
/**
 * The install starts from an empty npm cache, so every dependency is downloaded, and better-sqlite3
 * compiles from source when no prebuilt binary can be fetched: minutes on two cores (about two
 * here), far more on a slow or busy machine.
 */
const installTimeoutMs = 12 * 60_000;

/**
 * npm settings the surrounding `npm test` exported to its children; a nested npm would take
 * them as its own (a dry run, another prefix…). The user config and the registry stay: they say
 * how this machine reaches the registry.
 */
function npmEnvironment(): NodeJS.ProcessEnv {
  const kept = new Set(['npm_config_userconfig', 'npm_config_registry']);
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_') || kept.has(name.toLowerCase())));
}

interface PackResult {
  readonly name: string;
  readonly version: string;
  readonly filename: string;
  readonly files: readonly { readonly path: string }[];
}

interface LockEntry {
  readonly version?: string;
  readonly dev?: boolean;
  readonly optional?: boolean;
  readonly dependencies?: Record<string, string>;
  readonly devDependencies?: Record<string, string>;
}

interface Lock {
  readonly packages: Record<string, LockEntry>;
}

/** The lock file's entries the running code needs: all but the root and the development tree. */
function runningTree(lock: Lock): [string, LockEntry][] {
  return Object.entries(lock.packages).filter(([location, entry]) => location !== '' && entry.dev !== true);
}

/** The package a lock file location or installed folder holds: what follows its last node_modules/. */
function packageName(location: string): string {
  return location.slice(location.lastIndexOf('node_modules/') + 'node_modules/'.length);
}

/** Every package installed under `prefix`, by its folder relative to `prefix`, with its version. */
function installedPackages(prefix: string): Map<string, string> {
  const found = new Map<string, string>();
  const visit = (modules: string) => {
    if (!existsSync(modules)) return;
    for (const name of readdirSync(modules)) {
      if (name.startsWith('.')) continue;
      const folders = name.startsWith('@') ? readdirSync(path.join(modules, name)).map((inner) => path.join(modules, name, inner)) : [path.join(modules, name)];
      for (const folder of folders) {
        const manifest = path.join(folder, 'package.json');
        if (!existsSync(manifest)) continue;
        found.set(path.relative(prefix, folder), (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version);
        visit(path.join(folder, 'node_modules'));
      }
    }
  };
  visit(path.join(prefix, 'node_modules'));
  return found;
}

/**
 * The package as a user gets it: packed, published to a registry, installed by name into an empty
 * prefix on an empty npm cache, and started from a directory that never saw the sources, with no
 * configuration.
 */
describe('the packed package', () => {
  let scratch: string;
  let packed: PackResult;
  let lockBefore: string;
  let prefix: string | undefined;
  let gateway: SpawnedGateway | undefined;

  beforeAll(async () => {
    if (!existsSync(path.join(root, 'dist', 'cli', 'main.js'))) throw new Error('run `npm run build` first (npm test does)');
    scratch = mkdtempSync(path.join(tmpdir(), 'switchyard-package-'));
    lockBefore = readFileSync(lockPath, 'utf8');
    // `prepare` is left out: it rebuilds dist from scratch, which would pull it from under the
    // other suites running beside this one; npm test has just built it. The pack's own steps
    // (prepack, postpack) run as `npm publish` runs them.
    const options = { cwd: root, env: npmEnvironment() };
    try {
      await run('npm', ['run', 'prepack', '--if-present', '--silent'], options);
      const { stdout } = await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', scratch], options);
      packed = (JSON.parse(stdout) as PackResult[])[0]!;
    } finally {
      await run('npm', ['run', 'postpack', '--if-present', '--silent'], options);
    }
  }, 120_000);

  afterAll(async () => {
    await gateway?.stop();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('carries the command, the built code and the shrinkwrap, and nothing of the sources, tests or local data', () => {
    const paths = packed.files.map((file) => file.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'package.json',
        'README.md',
        'npm-shrinkwrap.json',
        'bin/switchyard.js',
        'dist/cli/main.js',
        'dist/storage/migrations/initial-schema.js',
        'dist/console/index.html',
        // The token counter's o200k rank table, read on first use.
        'dist/tokens/o200k-ranks.bin',
      ]),
    );
    // The built console: its page, icon, and one hashed script and stylesheet.
    expect(paths.filter((file) => /^dist\/console\/assets\/app-[A-Z0-9]+\.(js|css)$/.test(file))).toHaveLength(2);
    const unexpected = paths.filter(
      (file) =>
        !/^(package\.json|README\.md|npm-shrinkwrap\.json|bin\/switchyard\.js|dist\/.+\.js|dist\/console\/(index\.html|favicon\.svg|assets\/app-[A-Z0-9]+\.css)|dist\/tokens\/o200k-ranks\.bin)$/.test(file) ||
        /\.test\.js$|test-support|-contract/.test(file),
    );
    expect(unexpected).toEqual([]);
  });

  it("ships the lock file's running tree without its development tree, and leaves the repository's lock file whole", async () => {
    const shipped = JSON.parse((await run('tar', ['-xzOf', path.join(scratch, packed.filename), 'package/npm-shrinkwrap.json'])).stdout) as Lock;
    expect(readFileSync(lockPath, 'utf8')).toBe(lockBefore);
    const lock = JSON.parse(lockBefore) as Lock;
    // The repository's lock file holds the development tree too: `npm ci` installs it from there.
    expect(lock.packages['node_modules/vitest']?.dev).toBe(true);
    expect(lock.packages['']?.devDependencies).toHaveProperty('vitest');

    expect(Object.entries(shipped.packages).filter(([location]) => location !== '')).toEqual(runningTree(lock));
    expect(shipped.packages['']?.dependencies).toEqual(lock.packages['']?.dependencies);
    expect(shipped.packages['']?.devDependencies).toBeUndefined();
  });

  it('installs from a registry on an empty cache with exactly the versions of the lock file, and none of its development tree', async () => {
    const installPrefix = path.join(scratch, 'prefix');
    mkdirSync(installPrefix);
    const environment = npmEnvironment();
    const upstream = (await run('npm', ['config', 'get', 'registry'], { cwd: root, env: environment })).stdout.trim();
    const registry = await startPackageRegistry(path.join(scratch, packed.filename), upstream);
    try {
      await run(
        'npm',
        ['install', '--prefix', installPrefix, '--registry', registry.url, '--cache', path.join(scratch, 'empty-npm-cache'), '--no-audit', '--no-fund', `${packed.name}@${packed.version}`],
        { cwd: installPrefix, env: environment, timeout: installTimeoutMs, maxBuffer: 64 * 1024 * 1024 },
      );
    } finally {
      await registry.close();
    }

    const lock = JSON.parse(lockBefore) as Lock;
    const installed = installedPackages(installPrefix);
    // npm lays a shrinkwrapped package's tree out as its shrinkwrap says, inside the package's own folder.
    const underPackage = (location: string) => path.join('node_modules', packed.name, location);
    const locked = new Map([[underPackage(''), packed.version], ...runningTree(lock).map(([location, entry]): [string, string | undefined] => [underPackage(location), entry.version])]);
    // No release the tests did not run with, wherever npm put it.
    const lockedReleases = new Set(runningTree(lock).map(([location, entry]) => `${packageName(location)}@${entry.version}`));
    const otherReleases = [...installed].map(([location, version]) => `${packageName(location)}@${version}`).filter((release) => !lockedReleases.has(release));
    expect(otherReleases).toEqual([`${packed.name}@${packed.version}`]);
    expect(installed.get(underPackage('node_modules/@aws-sdk/client-s3'))).toBe(lock.packages['node_modules/@aws-sdk/client-s3']?.version);
    // Nothing installed that the lock file does not hold at that place and version: no newer
    // release, no development dependency, nothing laid out elsewhere.
    expect([...installed].filter(([location, version]) => locked.get(location) !== version)).toEqual([]);
    // Nothing the running code needs left out (optional packages are for other platforms).
    const missing = runningTree(lock).filter(([location, entry]) => entry.optional !== true && !installed.has(underPackage(location)));
    expect(missing.map(([location]) => location)).toEqual([]);
    prefix = installPrefix;
  }, installTimeoutMs + 60_000);

  it('serves a chat completion and the console from any directory once installed', async () => {
    if (prefix === undefined) throw new Error('the install above failed');
    const workDirectory = path.join(scratch, 'elsewhere');
    mkdirSync(workDirectory);
    gateway = await spawnGateway(path.join(prefix, 'node_modules', '.bin', 'switchyard'), ['serve', '--port', '0'], {
      cwd: workDirectory,
      env: zeroConfigEnvironment(),
      urlPattern: /"url":"(http:\/\/[^"]+)"/,
    });
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'not-needed-yet', maxRetries: 0 });
    const completion = await client.chat.completions.create({ model: 'sim-gpt', messages: [{ role: 'user', content: 'hello from an installed package' }] });
    expect(completion.choices[0]?.message.content).toContain('hello from an installed package');
    // A local token count reads the rank table the package carries, with no tokenizer package installed.
    const anthropic = new Anthropic({ baseURL: gateway.url, apiKey: 'not-needed-yet', maxRetries: 0 });
    const counted = await anthropic.messages.countTokens({ model: 'sim-gpt', messages: [{ role: 'user', content: 'count me, please' }] });
    expect(counted.input_tokens).toBe(4 + 4);
    const consolePage = await fetch(`${gateway.url}/console/keys`);
    expect(consolePage.status).toBe(200);
    expect(await consolePage.text()).toContain('<script type="module" src="/console/assets/app-');
    expect(readdirSync(path.join(workDirectory, 'data'))).toContain('switchyard.db');
    expect(await gateway.stop()).toBe(0);
  }, 60_000);
});
