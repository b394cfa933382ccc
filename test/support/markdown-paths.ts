import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** A source or test path a markdown page names that is not in the repository, or a test title its file lacks. */
export interface MissingPath {
  readonly file: string;
  readonly line: number;
  readonly path: string;
  readonly reason: string;
}

/** Folders at the repository's root that a page names from the root (`src/app/…`, `test/e2e/…`). */
const rootFolders = new Set(['src', 'test', 'bench', 'scripts', 'console', 'docs', 'bin']);

/** A path written as the pages write them: segments of letters, digits, `.`, `_` and `-`, at least one `/`. */
const pathShaped = /^[A-Za-z0-9_.-]+(?:\/[A-Za-z0-9_.-]+)*\/?$/;

/** Paths inside a diagram: not inside a URL or a longer path (no `/`, word or `.` right before). */
const pathInDiagram = /(?<![\w/.:-])[a-z][a-z0-9-]*(?:\/[A-Za-z0-9_.-]+)+\/?/g;

/** A bare test file's name, which the pages use for the end-to-end suites (`bad-input.test.ts`). */
const bareTestFile = /^[A-Za-z0-9_.-]+\.test\.ts$/;

/** A bare source file's name, as a page writes it beside the folder that holds it (`write-answer.ts`). */
const bareSourceFile = /^[A-Za-z0-9_.-]+\.(?:ts|tsx|js|mjs)$/;

interface PageLine {
  readonly text: string;
  readonly number: number;
  readonly fenced: boolean;
}

/**
 * Every path of `files` (markdown pages under `root`) that names nothing in the repository. A page
 * names source and tests three ways, each checked:
 * - in inline code, from the root (`src/app/request-listener.ts`, `test/e2e/`) or, for a folder of
 *   `src/` or a `.ts` file, from inside `src/` (`governance/budgets/`, `app/gateway-app.ts`);
 * - in a diagram (a fenced block), a path under `src/` as above, with or without `.ts`
 *   (`endpoints/text/text-endpoint`);
 * - a bare test file's name (`bad-input.test.ts`), which is an end-to-end suite under `test/e2e/`,
 *   and a bare source file's name (`write-answer.ts`), which must be a file somewhere in the
 *   repository's own folders;
 *   the quoted titles after a test file in the same list item (`x.test.ts` "does this") must be
 *   tests of that file (a title ending in `…` is matched up to it).
 */
export function missingPaths(root: string, files: readonly string[]): MissingPath[] {
  const sourceFolders = new Set(readdirSync(path.join(root, 'src')));
  const resolve = (written: string): string | undefined => {
    const first = written.split('/')[0] ?? '';
    if (written.includes('/') && rootFolders.has(first)) return written;
    // A source file under a folder `src/` no longer has is a moved file, not a path of something else.
    if (written.includes('/') && (sourceFolders.has(first) || written.endsWith('.ts'))) return path.join('src', written);
    if (bareTestFile.test(written)) return path.join('test/e2e', written);
    return undefined;
  };
  const exists = (relative: string): boolean => {
    const absolute = path.join(root, relative);
    return existsSync(absolute) || existsSync(`${absolute}.ts`);
  };
  let fileNames: Set<string> | undefined;
  const isFileName = (name: string): boolean => {
    fileNames ??= new Set([
      ...readdirSync(root),
      ...[...rootFolders].filter((folder) => existsSync(path.join(root, folder))).flatMap((folder) => readdirSync(path.join(root, folder), { recursive: true }).map((entry) => path.basename(String(entry)))),
    ]);
    return fileNames.has(name);
  };
  const missing: MissingPath[] = [];
  for (const file of files) {
    const lines = pageLines(readFileSync(path.join(root, file), 'utf8'));
    for (const line of lines) {
      const written = line.fenced ? [...line.text.matchAll(pathInDiagram)].map((match) => match[0]) : codeSpans(line.text).filter((span) => pathShaped.test(span));
      for (const span of written) {
        if (!line.fenced && !bareTestFile.test(span) && bareSourceFile.test(span)) {
          if (!isFileName(span)) missing.push({ file, line: line.number, path: span, reason: 'no file of that name' });
          continue;
        }
        const relative = resolve(span);
        if (relative === undefined || (line.fenced && !relative.startsWith('src'))) continue;
        if (!exists(relative)) missing.push({ file, line: line.number, path: span, reason: `no ${relative}` });
      }
    }
    for (const item of listItems(lines)) {
      for (const { testFile, title } of quotedTitles(item.text)) {
        const relative = resolve(testFile);
        if (relative === undefined || !exists(relative) || statSync(path.join(root, relative)).isDirectory()) continue;
        const wanted = title.replace(/…$/, '');
        if (!readFileSync(path.join(root, relative), 'utf8').includes(wanted)) {
          missing.push({ file, line: item.number, path: testFile, reason: `no test titled "${title}"` });
        }
      }
    }
  }
  return missing;
}

/** The lines of a page, each marked as inside a fenced block or not (fence lines themselves left out). */
function pageLines(markdown: string): PageLine[] {
  const lines: PageLine[] = [];
  let fenced = false;
  markdown.split('\n').forEach((text, index) => {
    if (/^\s*(```|~~~)/.test(text)) {
      fenced = !fenced;
      return;
    }
    lines.push({ text, number: index + 1, fenced });
  });
  return lines;
}

function codeSpans(text: string): string[] {
  return [...text.matchAll(/`([^`]+)`/g)].map((match) => match[1] ?? '');
}

/** List items (`- …` and the indented lines that continue it) joined into one line each. */
function listItems(lines: readonly PageLine[]): { text: string; number: number }[] {
  const items: { text: string; number: number }[] = [];
  let current: { text: string; number: number } | undefined;
  for (const line of lines) {
    if (line.fenced) {
      current = undefined;
    } else if (/^- /.test(line.text)) {
      current = { text: line.text.slice(2), number: line.number };
      items.push(current);
    } else if (current !== undefined && /^\s+\S/.test(line.text)) {
      current.text += ` ${line.text.trim()}`;
    } else {
      current = undefined;
    }
  }
  return items;
}

/** Each `"title"` in an item with the test file named last before it in inline code. */
function quotedTitles(item: string): { testFile: string; title: string }[] {
  const found: { testFile: string; title: string }[] = [];
  let testFile: string | undefined;
  for (const match of item.matchAll(/`([^`]+)`|"([^"]+)"/g)) {
    if (match[1] !== undefined) testFile = match[1].endsWith('.test.ts') ? match[1] : undefined;
    else if (testFile !== undefined && match[2] !== undefined) found.push({ testFile, title: match[2] });
  }
  return found;
}
