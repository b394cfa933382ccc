#!/usr/bin/env node
/**
 * `npm start`'s first step: builds (npm run build) only when dist/ is missing or older than what
 * it is built from, so a start after the first takes a second instead of a full build.
 *
 *   node scripts/build-if-stale.js
 *
 * dist/ counts as built at the older of its two products (the compiled CLI and the console's
 * index.html); it is stale when either is missing or when any file under src/ or console/, or a
 * build setting (package.json, the tsconfigs, the console's build script), was changed after it.
 *
 * `npm start --port 8080` (without `--`) gives the port to npm, not to the gateway, which would
 * then start on another port without a word: that is refused here, saying what to type instead.
 * Node built-ins only: this runs before anything is built.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** What dist/ is built from, besides the files under the source folders. */
export const buildInputs = { folders: ['src', 'console'], files: ['package.json', 'tsconfig.json', 'tsconfig.build.json', 'scripts/build-console.js', 'scripts/bundle-gateway.js', 'scripts/copy-rank-file.js'] };
/** What a build makes; dist/ is as old as the older of them. */
export const buildProducts = ['dist/cli/main.js', 'dist/bundle/gateway/main.js', 'dist/console/index.html'];

/**
 * Whether `root`'s dist/ needs a build, and why (for the line printed before building).
 * @param {string} root
 * @returns {{ stale: boolean, reason: string }}
 */
export function buildStaleness(root) {
  let builtAt = Infinity;
  for (const product of buildProducts) {
    const file = path.join(root, product);
    if (!existsSync(file)) return { stale: true, reason: `${product} is missing` };
    builtAt = Math.min(builtAt, statSync(file).mtimeMs);
  }
  const newest = newestInput(root);
  if (newest !== undefined && newest.mtimeMs > builtAt) return { stale: true, reason: `${newest.file} changed after the last build` };
  return { stale: false, reason: 'dist/ is up to date' };
}

/**
 * The most recently changed build input, relative to `root`.
 * @param {string} root
 * @returns {{ file: string, mtimeMs: number } | undefined}
 */
function newestInput(root) {
  /** @type {{ file: string, mtimeMs: number } | undefined} */
  let newest;
  const consider = (relative) => {
    const mtimeMs = statSync(path.join(root, relative)).mtimeMs;
    if (newest === undefined || mtimeMs > newest.mtimeMs) newest = { file: relative, mtimeMs };
  };
  const walk = (relative) => {
    for (const entry of readdirSync(path.join(root, relative), { withFileTypes: true })) {
      const child = path.join(relative, entry.name);
      if (entry.isDirectory()) walk(child);
      else if (entry.isFile()) consider(child);
    }
  };
  for (const folder of buildInputs.folders) if (existsSync(path.join(root, folder))) walk(folder);
  for (const file of buildInputs.files) if (existsSync(path.join(root, file))) consider(file);
  return newest;
}

/**
 * The refusal for a port npm kept for itself, or undefined. npm turns an unknown `--port` into its
 * own setting `npm_config_port` (a following number becomes an argument the gateway ignores).
 * @param {Readonly<Record<string, string | undefined>>} environment
 * @returns {string | undefined}
 */
export function portTakenByNpm(environment) {
  const value = environment.npm_config_port;
  if (value === undefined) return undefined;
  const port = /^\d+$/.test(value) ? value : 'N';
  return `switchyard: npm took --port for itself, so the gateway would not see it; run \`npm start -- --port ${port}\` or \`PORT=${port} npm start\``;
}

function main() {
  const refusal = portTakenByNpm(process.env);
  if (refusal !== undefined) {
    console.error(refusal);
    return 2;
  }
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const { stale, reason } = buildStaleness(root);
  if (!stale) return 0;
  console.error(`switchyard: building (${reason}) …`);
  // The npm that runs this script, so the build is the one package.json defines.
  const npm = process.env.npm_execpath;
  const build =
    npm === undefined
      ? spawnSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' })
      : spawnSync(process.execPath, [npm, 'run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
  return build.status ?? 1;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) process.exitCode = main();
