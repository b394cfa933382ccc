import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root, which every page path below is relative to. */
export const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The Markdown pages directly in `folder` (relative to the root), or none when it does not exist. */
export function markdownIn(folder: string, root = repositoryRoot): string[] {
  if (!existsSync(path.join(root, folder))) return [];
  return readdirSync(path.join(root, folder))
    .filter((name) => name.endsWith('.md'))
    .map((name) => path.join(folder, name));
}
