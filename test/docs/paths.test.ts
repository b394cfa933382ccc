import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { markdownIn, repositoryRoot } from '../support/markdown-files.js';
import { missingPaths } from '../support/markdown-paths.js';

/**
 * The pages name source files, folders and the tests that hold each promise; a file moved or a
 * test renamed must not leave a page pointing at nothing. bench/results/history.md is left out:
 * it records past builds by the paths they had then.
 */

const root = repositoryRoot;

describe('paths named in the documentation', () => {
  it('every source path, test file and quoted test title in the README, docs/ and bench/README.md exists', () => {
    const files = ['README.md', ...markdownIn('docs'), 'bench/README.md'];
    expect(files).toContain('docs/security.md');
    expect(missingPaths(root, files)).toEqual([]);
  });

  it("the architecture page's folder map names every folder of src/ and no other", () => {
    const page = readFileSync(path.join(root, 'docs/architecture.md'), 'utf8');
    const start = page.indexOf('\n## Folder map\n');
    expect(start).toBeGreaterThan(-1);
    const map = page.slice(start, page.indexOf('\n## ', start + 1));
    const mapped = map
      .split('\n')
      .filter((line) => line.startsWith('| `'))
      .flatMap((line) => [...(line.split('|')[1] ?? '').matchAll(/`([a-z-]+)\/`/g)].map((match) => match[1]));
    const folders = readdirSync(path.join(root, 'src'), { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
    expect(mapped.sort()).toEqual(folders.sort());
  });

  it('reports a moved source file, a file named alone that is gone, a missing end-to-end suite, a renamed test and a stale diagram, and passes the rest', () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'switchyard-paths-'));
    try {
      for (const made of ['src/app', 'src/http', 'src/endpoints', 'test/e2e', 'docs']) mkdirSync(path.join(folder, made), { recursive: true });
      writeFileSync(path.join(folder, 'src/app/request-listener.ts'), '');
      writeFileSync(path.join(folder, 'src/http/open-access-caller.test.ts'), "it('takes pages on this machine only', () => {});\n");
      writeFileSync(path.join(folder, 'test/e2e/bad-input.test.ts'), "it('answers 413 for a body over the limit', () => {});\n");
      writeFileSync(
        path.join(folder, 'docs/page.md'),
        [
          '# Page',
          'Fine: `src/app/request-listener.ts`, `app/request-listener.ts`, `http/`, `test/e2e/`, `/v1/models`, `a/b`.',
          'Moved: `src/server/request-listener.ts` and `server/gateway-app.ts`.',
          'Named alone: `request-listener.ts`, gone: `with-limit-headers.ts`.',
          '- `bad-input.test.ts` "answers 413 for a body over the limit", `gone.test.ts`;',
          '  `src/http/open-access-caller.test.ts` "takes pages on this machine…", "a title that was',
          '  renamed"',
          '```',
          'app/request-listener ─ http/authenticate ─ endpoints/text/text-endpoint (see https://x.example/src/nothing)',
          '```',
        ].join('\n'),
      );
      expect(missingPaths(folder, ['docs/page.md'])).toEqual([
        { file: 'docs/page.md', line: 3, path: 'src/server/request-listener.ts', reason: 'no src/server/request-listener.ts' },
        { file: 'docs/page.md', line: 3, path: 'server/gateway-app.ts', reason: 'no src/server/gateway-app.ts' },
        { file: 'docs/page.md', line: 4, path: 'with-limit-headers.ts', reason: 'no file of that name' },
        { file: 'docs/page.md', line: 5, path: 'gone.test.ts', reason: 'no test/e2e/gone.test.ts' },
        { file: 'docs/page.md', line: 9, path: 'http/authenticate', reason: 'no src/http/authenticate' },
        { file: 'docs/page.md', line: 9, path: 'endpoints/text/text-endpoint', reason: 'no src/endpoints/text/text-endpoint' },
        { file: 'docs/page.md', line: 5, path: 'src/http/open-access-caller.test.ts', reason: 'no test titled "a title that was renamed"' },
      ]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
