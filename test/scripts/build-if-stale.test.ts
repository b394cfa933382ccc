import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildStaleness, portTakenByNpm } from '../../scripts/build-if-stale.js';

/**
 * `npm start` builds only when it must: on a fresh clone (no dist/), and after a source, console
 * or build-setting change; otherwise it starts at once.
 */

let root: string;

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'switchyard-stale-'));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

/** Writes `relative` under the fake checkout, changed `secondsAgo` seconds ago. */
function fileAt(relative: string, secondsAgo: number): void {
  const file = path.join(root, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, relative);
  const when = new Date(Date.now() - secondsAgo * 1000);
  utimesSync(file, when, when);
}

function checkout(options: { sourceSecondsAgo: number; builtSecondsAgo?: number }): void {
  fileAt('src/app/start-gateway.ts', options.sourceSecondsAgo);
  fileAt('console/main.tsx', options.sourceSecondsAgo);
  fileAt('package.json', options.sourceSecondsAgo);
  fileAt('tsconfig.json', options.sourceSecondsAgo);
  if (options.builtSecondsAgo === undefined) return;
  fileAt('dist/cli/main.js', options.builtSecondsAgo);
  fileAt('dist/bundle/gateway/main.js', options.builtSecondsAgo);
  fileAt('dist/console/index.html', options.builtSecondsAgo);
}

describe('whether npm start builds first', () => {
  it('builds a fresh clone, which has no dist/', () => {
    checkout({ sourceSecondsAgo: 60 });
    expect(buildStaleness(root)).toEqual({ stale: true, reason: 'dist/cli/main.js is missing' });
  });

  it('builds when the console was never built', () => {
    checkout({ sourceSecondsAgo: 60, builtSecondsAgo: 30 });
    rmSync(path.join(root, 'dist/console'), { recursive: true });
    expect(buildStaleness(root)).toEqual({ stale: true, reason: 'dist/console/index.html is missing' });
  });

  it('builds when the bundle the command starts from was never made', () => {
    checkout({ sourceSecondsAgo: 60, builtSecondsAgo: 30 });
    rmSync(path.join(root, 'dist/bundle'), { recursive: true });
    expect(buildStaleness(root)).toEqual({ stale: true, reason: 'dist/bundle/gateway/main.js is missing' });
  });

  it('starts at once when dist/ is newer than everything it is built from', () => {
    checkout({ sourceSecondsAgo: 60, builtSecondsAgo: 30 });
    expect(buildStaleness(root).stale).toBe(false);
  });

  it.each([
    ['a source file deep under src/', 'src/providers/openai/chat/build-request.ts'],
    ['a console file', 'console/pages/keys.tsx'],
    ['a build setting', 'tsconfig.build.json'],
    ['the bundling script', 'scripts/bundle-gateway.js'],
    ['package.json', 'package.json'],
  ])('builds after a change to %s', (_name, changed) => {
    checkout({ sourceSecondsAgo: 60, builtSecondsAgo: 30 });
    fileAt(changed, 5);
    expect(buildStaleness(root)).toEqual({ stale: true, reason: `${changed} changed after the last build` });
  });

  it('builds when one product of the build is older than a change and the other newer', () => {
    checkout({ sourceSecondsAgo: 60, builtSecondsAgo: 30 });
    fileAt('src/cli/main.ts', 20);
    fileAt('dist/cli/main.js', 10);
    expect(buildStaleness(root).stale).toBe(true);
  });

  it('ignores files outside the build inputs (tests, docs, data)', () => {
    checkout({ sourceSecondsAgo: 60, builtSecondsAgo: 30 });
    fileAt('test/e2e/some.test.ts', 1);
    fileAt('README.md', 1);
    fileAt('data/switchyard.db', 1);
    expect(buildStaleness(root).stale).toBe(false);
  });
});

describe('a port given to npm instead of the gateway', () => {
  it('is refused with the command to type instead', () => {
    expect(portTakenByNpm({ npm_config_port: '9000' })).toContain('npm start -- --port 9000');
    expect(portTakenByNpm({ npm_config_port: 'true' })).toContain('PORT=N npm start');
    expect(portTakenByNpm({})).toBeUndefined();
  });
});
