import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { markdownIn, repositoryRoot } from '../support/markdown-files.js';
import { brokenLinks, headingAnchors } from '../support/markdown-links.js';

/**
 * The README sends a newcomer into docs/ and bench/ for every detail, so a moved page or a renamed
 * heading must not leave a link that leads nowhere.
 */

const root = repositoryRoot;

describe('documentation links', () => {
  it('every relative link in the README, docs/ and bench/ leads to a file and heading that exist', () => {
    const files = ['README.md', ...markdownIn('docs'), ...markdownIn('bench'), ...markdownIn('bench/results')];
    expect(files).toContain('docs/configuration.md');
    expect(brokenLinks(root, files)).toEqual([]);
  });

  it('reports a missing file, a missing heading and a heading of another page, and passes the rest', () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'switchyard-links-'));
    try {
      mkdirSync(path.join(folder, 'docs'));
      writeFileSync(path.join(folder, 'docs/limits.md'), '# Limits and budgets\n\n## Shared by every instance: Redis\n');
      writeFileSync(
        path.join(folder, 'README.md'),
        [
          '# Title',
          '[fine](docs/limits.md#shared-by-every-instance-redis) and [here](#title)',
          '[gone](docs/missing.md)',
          '[no heading](docs/limits.md#budgets)',
          '`[inline code](docs/nowhere.md)` and [outside](https://example.com/x)',
          '```',
          '[in a code block](docs/nowhere.md)',
          '```',
        ].join('\n'),
      );
      expect(brokenLinks(folder, ['README.md'])).toEqual([
        { file: 'README.md', line: 3, target: 'docs/missing.md', reason: 'no such file' },
        { file: 'README.md', line: 4, target: 'docs/limits.md#budgets', reason: 'no heading #budgets' },
      ]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('names headings as GitHub anchors them: punctuation and code marks dropped, repeats numbered', () => {
    const anchors = headingAnchors('# Upstream faults, circuit breakers\n## `GET /metrics`\n## Memory\n## Memory\n```\n# not a heading\n```\n');
    expect([...anchors]).toEqual(['upstream-faults-circuit-breakers', 'get-metrics', 'memory', 'memory-1']);
  });
});
