import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { productionShrinkwrap, pruneShrinkwrap, restoreShrinkwrap, shrinkwrapPaths } from '../../scripts/production-shrinkwrap.js';

/**
 * The shrinkwrap a packed switchyard carries lists the running tree only, and packing never costs
 * the repository its whole lock file.
 */

const wholeLock = {
  name: 'switchyard',
  version: '0.1.0',
  lockfileVersion: 3,
  requires: true,
  packages: {
    '': { name: 'switchyard', version: '0.1.0', dependencies: { pg: '^8.23.1' }, devDependencies: { vitest: '^3.2.7' } },
    'node_modules/pg': { version: '8.23.1', integrity: 'sha512-pg' },
    'node_modules/vitest': { version: '3.2.7', dev: true },
    'node_modules/fsevents': { version: '2.3.3', devOptional: true, optional: true },
    'node_modules/pg-cloudflare': { version: '1.2.7', optional: true },
  },
};

let root: string;
beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'switchyard-shrinkwrap-'));
  writeFileSync(shrinkwrapPaths(root).lock, `${JSON.stringify(wholeLock, null, 2)}\n`);
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

const lockOnDisk = () => JSON.parse(readFileSync(shrinkwrapPaths(root).lock, 'utf8')) as typeof wholeLock;

describe('the shrinkwrap a pack ships', () => {
  it('leaves out what only development needs, and keeps what the running code may load', () => {
    const shipped = productionShrinkwrap(wholeLock);
    expect(Object.keys(shipped.packages)).toEqual(['', 'node_modules/pg', 'node_modules/fsevents', 'node_modules/pg-cloudflare']);
    expect(shipped.packages['']).toEqual({ name: 'switchyard', version: '0.1.0', dependencies: { pg: '^8.23.1' } });
    expect(shipped.packages['node_modules/pg']).toEqual(wholeLock.packages['node_modules/pg']);
    expect(shipped.lockfileVersion).toBe(3);
  });

  it('is in place between prepack and postpack, and the whole lock file is back after', () => {
    pruneShrinkwrap(root);
    expect(lockOnDisk().packages).not.toHaveProperty(['node_modules/vitest']);
    restoreShrinkwrap(root);
    expect(lockOnDisk()).toEqual(wholeLock);
    expect(existsSync(shrinkwrapPaths(root).saved)).toBe(false);
  });

  it('keeps the whole lock file when a pack stopped before its postpack and another pack starts', () => {
    pruneShrinkwrap(root);
    pruneShrinkwrap(root);
    restoreShrinkwrap(root);
    expect(lockOnDisk()).toEqual(wholeLock);
  });
});
