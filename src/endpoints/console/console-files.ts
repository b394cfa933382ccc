import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** One built file of the console, read once and kept: the whole console is a few hundred kilobytes. */
export interface ConsoleFile {
  readonly body: Buffer;
  readonly contentType: string;
  /** Asset names carry a hash of their content, so they may be cached for good. */
  readonly immutable: boolean;
}

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
};

/**
 * Where `npm run build` writes the console: `dist/console/`, beside the compiled server
 * (dist/endpoints/console/ → dist/console/; the bundle, dist/bundle/gateway/, sits as deep), or,
 * when the server runs from its TypeScript sources (tests), the same folder seen from src/.
 */
function consoleDirectory(): string | undefined {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [path.resolve(here, '../../console'), path.resolve(here, '../../../dist/console')];
  return candidates.find((candidate) => existsSync(path.join(candidate, 'index.html')));
}

function readTree(directory: string, prefix: string, into: Map<string, ConsoleFile>): void {
  for (const name of readdirSync(directory)) {
    const full = path.join(directory, name);
    if (statSync(full).isDirectory()) {
      readTree(full, `${prefix}${name}/`, into);
      continue;
    }
    if (name.endsWith('.map')) continue;
    const contentType = contentTypes[path.extname(name)] ?? 'application/octet-stream';
    into.set(`${prefix}${name}`, { body: readFileSync(full), contentType, immutable: prefix.startsWith('assets/') });
  }
}

/** The built console by path below `/console/` (`index.html`, `assets/app-3F2A….js`); empty when it was not built. */
export function loadConsoleFiles(): ReadonlyMap<string, ConsoleFile> {
  const files = new Map<string, ConsoleFile>();
  const directory = consoleDirectory();
  if (directory !== undefined) readTree(directory, '', files);
  return files;
}
