#!/usr/bin/env node
/**
 * The package ships npm-shrinkwrap.json so that `npm install switchyard` gets exactly the versions
 * the tests ran with, not the newest ones its ranges allow. The file in the repository is the
 * project's one lock file and lists the development tree too (`npm ci` needs it), and npm installs
 * every entry of a dependency's shrinkwrap, its "dev" ones included. So packing swaps in a copy
 * without them and puts the whole file back afterwards:
 *
 *   node scripts/production-shrinkwrap.js prune     (prepack)
 *   node scripts/production-shrinkwrap.js restore   (postpack)
 *
 * The whole file waits in .tmp/ meanwhile; a prune after a pack that never reached its postpack
 * puts that copy back first, so the repository's lock file is never lost to a pruned one.
 * Node built-ins only.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * The shrinkwrap a user's install follows: every entry but those only the development tree
 * needs (`dev`; a `devOptional` entry is an optional dependency of the running code too), and no
 * development dependencies on the package itself.
 * @param {{ packages: Record<string, Record<string, unknown>> }} lock
 */
export function productionShrinkwrap(lock) {
  const packages = {};
  for (const [location, entry] of Object.entries(lock.packages)) {
    if (entry.dev === true) continue;
    if (location === '') {
      const { devDependencies: _devDependencies, ...own } = entry;
      packages[location] = own;
    } else {
      packages[location] = entry;
    }
  }
  return { ...lock, packages };
}

/** The repository's lock file and where the whole of it waits while a pack runs. */
export function shrinkwrapPaths(root) {
  return { lock: path.join(root, 'npm-shrinkwrap.json'), saved: path.join(root, '.tmp', 'npm-shrinkwrap.full.json') };
}

export function restoreShrinkwrap(root) {
  const { lock, saved } = shrinkwrapPaths(root);
  if (existsSync(saved)) renameSync(saved, lock);
}

export function pruneShrinkwrap(root) {
  const { lock, saved } = shrinkwrapPaths(root);
  restoreShrinkwrap(root);
  const whole = readFileSync(lock, 'utf8');
  mkdirSync(path.dirname(saved), { recursive: true });
  writeFileSync(saved, whole);
  writeFileSync(lock, `${JSON.stringify(productionShrinkwrap(JSON.parse(whole)), null, 2)}\n`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const step = process.argv[2];
  if (step === 'prune') pruneShrinkwrap(root);
  else if (step === 'restore') restoreShrinkwrap(root);
  else {
    process.stderr.write('usage: node scripts/production-shrinkwrap.js prune|restore\n');
    process.exit(2);
  }
}
