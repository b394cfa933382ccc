import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { chmod, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { assertContentKey, clampRange } from './content-key.js';
import type { ByteRange, ContentEntry, ContentReader, ContentSource, ContentStore, PutOptions, StoredContent } from './content-store.js';

/** What is kept beside each file: its type and when it may go. */
interface Sidecar {
  readonly contentType: string;
  readonly expiresAt?: string;
}

const metaSuffix = '.meta';
/** The sidecar of content written by earlier builds: the content type alone, as text. */
const typeSuffix = '.type';
const partialSuffix = '.partial';
/** Generated images and videos are the callers' own: readable by the gateway's user only. */
const ownerOnlyFile = 0o600;
const ownerOnlyDirectory = 0o700;

function isSidecarOrTemporary(name: string): boolean {
  return name.endsWith(metaSuffix) || name.endsWith(typeSuffix) || name.includes(partialSuffix);
}

/**
 * Content in a local directory: one file per key and a small JSON sidecar with its content type
 * and expiry. A write goes to a temporary file renamed into place, so a reader sees the old
 * content or the new, never half of either, even if the process dies mid-write. Directories are
 * created 0700 and files 0600.
 */
export class LocalDirectoryContentStore implements ContentStore {
  constructor(private readonly root: string) {}

  /**
   * The store on `root`, which is created 0700, or narrowed to 0700 if it exists with wider
   * permissions (an earlier build's): the directory is the store's alone, and closing it keeps
   * every file under it from other users without visiting each one.
   */
  static async open(root: string): Promise<LocalDirectoryContentStore> {
    await mkdir(root, { recursive: true, mode: ownerOnlyDirectory });
    await chmod(root, ownerOnlyDirectory).catch((error: unknown) => {
      // A directory of another user (who keeps the say over its mode) or on a read-only mount.
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EPERM' && code !== 'EROFS') throw error;
    });
    return new LocalDirectoryContentStore(root);
  }

  async put(key: string, content: ContentSource, contentType: string, options: PutOptions = {}): Promise<StoredContent> {
    const file = this.fileFor(key);
    await mkdir(path.dirname(file), { recursive: true, mode: ownerOnlyDirectory });
    const temporary = `${file}.${randomUUID()}${partialSuffix}`;
    const sidecar: Sidecar = { contentType, ...(options.expiresAt === undefined ? {} : { expiresAt: options.expiresAt.toISOString() }) };
    const writer = createWriteStream(temporary, { mode: ownerOnlyFile });
    try {
      const source = content instanceof Uint8Array ? Readable.from([content]) : Readable.from(content);
      await pipeline(source, writer);
      await writeFile(`${temporary}${metaSuffix}`, JSON.stringify(sidecar), { mode: ownerOnlyFile });
      // The sidecar first: a reader that finds the content always finds its type beside it.
      await rename(`${temporary}${metaSuffix}`, `${file}${metaSuffix}`);
      await rename(temporary, file);
      await rm(`${file}${typeSuffix}`, { force: true });
    } catch (error) {
      // A write stream destroyed before its file is open still opens (so creates) it, then closes it:
      // removed before that, the file would come back.
      if (!writer.closed) await new Promise<void>((closed) => writer.once('close', () => closed()));
      await Promise.all([rm(temporary, { force: true }), rm(`${temporary}${metaSuffix}`, { force: true })]);
      throw error;
    }
    const { size } = await stat(file);
    return { key, contentType, size };
  }

  async get(key: string, range?: ByteRange): Promise<ContentReader | undefined> {
    const file = this.fileFor(key);
    const size = await stat(file).then(
      (stats) => stats.size,
      () => undefined,
    );
    if (size === undefined) return undefined;
    const { contentType } = await this.sidecarOf(file);
    const served = clampRange(size, range);
    if (served === undefined) throw new RangeError(`bytes ${range?.start}-${range?.end ?? ''} lie outside the ${size} bytes stored`);
    // An empty file has no byte to read: createReadStream with end -1 would read it all.
    const body = size === 0 ? Readable.from([]) : createReadStream(file, served);
    return { key, contentType, size, range: served, body };
  }

  async delete(key: string): Promise<void> {
    const file = this.fileFor(key);
    await Promise.all([rm(file, { force: true }), rm(`${file}${metaSuffix}`, { force: true }), rm(`${file}${typeSuffix}`, { force: true })]);
  }

  async *list(): AsyncIterable<ContentEntry> {
    yield* this.walk(this.root, []);
  }

  /** Depth first and lazily; files that vanish during the walk (another sweeper) are skipped. */
  private async *walk(directory: string, segments: readonly string[]): AsyncIterable<ContentEntry> {
    const entries = await readdir(directory, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const file = path.join(directory, entry.name);
      if (entry.isDirectory()) {
        yield* this.walk(file, [...segments, entry.name]);
        continue;
      }
      if (!entry.isFile() || isSidecarOrTemporary(entry.name)) continue;
      const stats = await stat(file).catch(() => undefined);
      if (stats === undefined) continue;
      const { expiresAt } = await this.sidecarOf(file);
      yield { key: [...segments, entry.name].join('/'), size: stats.size, storedAt: stats.mtime, ...(expiresAt === undefined ? {} : { expiresAt: new Date(expiresAt) }) };
    }
  }

  private async sidecarOf(file: string): Promise<Sidecar> {
    const meta = await readFile(`${file}${metaSuffix}`, 'utf8').catch(() => undefined);
    if (meta !== undefined) {
      try {
        return JSON.parse(meta) as Sidecar;
      } catch {
        return { contentType: 'application/octet-stream' };
      }
    }
    return { contentType: await readFile(`${file}${typeSuffix}`, 'utf8').catch(() => 'application/octet-stream') };
  }

  private fileFor(key: string): string {
    assertContentKey(key);
    return path.join(this.root, ...key.split('/'));
  }
}
