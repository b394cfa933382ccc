import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** A relative link in a markdown file that leads nowhere: no such file, or no such heading in it. */
export interface BrokenLink {
  readonly file: string;
  readonly line: number;
  readonly target: string;
  readonly reason: string;
}

/**
 * The anchor GitHub gives a heading: lower case, inline markup and punctuation dropped, spaces
 * turned into hyphens; a repeated heading gets `-1`, `-2`, … in the order they appear.
 */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of outsideCodeBlocks(markdown)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line.text);
    if (heading === null) continue;
    const base = (heading[1] ?? '')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{Letter}\p{Number}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/**
 * Every relative link and image of `files` (paths under `root`) that points at a missing file or,
 * with `#anchor`, at a heading its markdown file does not have. Links inside code blocks and inline
 * code are not links; absolute URLs are not checked (that would need the network).
 */
export function brokenLinks(root: string, files: readonly string[]): BrokenLink[] {
  const broken: BrokenLink[] = [];
  const anchorsOf = new Map<string, Set<string>>();
  const anchorsFor = (file: string): Set<string> => {
    let anchors = anchorsOf.get(file);
    if (anchors === undefined) {
      anchors = headingAnchors(readFileSync(file, 'utf8'));
      anchorsOf.set(file, anchors);
    }
    return anchors;
  };
  for (const file of files) {
    const absolute = path.join(root, file);
    for (const line of outsideCodeBlocks(readFileSync(absolute, 'utf8'))) {
      const text = line.text.replace(/`[^`]*`/g, '');
      for (const match of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
        const target = match[1] ?? '';
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
        const [pathPart = '', anchor] = target.split('#', 2);
        const destination = pathPart === '' ? absolute : path.resolve(path.dirname(absolute), decodeURI(pathPart));
        const report = (reason: string): void => {
          broken.push({ file, line: line.number, target, reason });
        };
        if (!existsSync(destination)) {
          report('no such file');
          continue;
        }
        if (anchor === undefined || anchor === '') continue;
        if (statSync(destination).isDirectory() || !destination.endsWith('.md')) {
          report('an anchor into something that is not a markdown file');
          continue;
        }
        if (!anchorsFor(destination).has(anchor)) report(`no heading #${anchor}`);
      }
    }
  }
  return broken;
}

/** The lines of `markdown` outside fenced code blocks, with their 1-based numbers. */
function outsideCodeBlocks(markdown: string): { text: string; number: number }[] {
  const lines: { text: string; number: number }[] = [];
  let fenced = false;
  markdown.split('\n').forEach((text, index) => {
    if (/^\s*(```|~~~)/.test(text)) {
      fenced = !fenced;
      return;
    }
    if (!fenced) lines.push({ text, number: index + 1 });
  });
  return lines;
}
