import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { assertContentKey, clampRange } from './content-key.js';
import type { ByteRange, ContentReader, ContentSource, ContentStore, StoredContent } from './content-store.js';

/**
 * Content in a local directory: one file per key and a small sidecar with its content type. A
 * write goes to a temporary file renamed into place, so a reader sees the old content or the new,
 * never half of either, even if the process dies mid-write.
 */
export class LocalDirectoryContentStore implements ContentStore {
  constructor(private readonly root: string) {}

  async put(key: string, content: ContentSource, contentType: string): Promise<StoredContent> {
    const file = this.fileFor(key);
    await mkdir(path.dirname(file), { recursive: true });
    const temporary = `${file}.${randomUUID()}.partial`;
    try {
      const source = content instanceof Uint8Array ? Readable.from([content]) : Readable.from(content);
      await pipeline(source, createWriteStream(temporary));
      await writeFile(`${temporary}.type`, contentType);
      // The type first: a reader that finds the content always finds its type beside it.
      await rename(`${temporary}.type`, `${file}.type`);
      await rename(temporary, file);
    } catch (error) {
      await Promise.all([rm(temporary, { force: true }), rm(`${temporary}.type`, { force: true })]);
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
    const contentType = await readFile(`${file}.type`, 'utf8').catch(() => 'application/octet-stream');
    const served = clampRange(size, range);
    if (served === undefined) throw new RangeError(`bytes ${range?.start}-${range?.end ?? ''} lie outside the ${size} bytes stored`);
    // An empty file has no byte to read: createReadStream with end -1 would read it all.
    const body = size === 0 ? Readable.from([]) : createReadStream(file, served);
    return { key, contentType, size, range: served, body };
  }

  async delete(key: string): Promise<void> {
    const file = this.fileFor(key);
    await Promise.all([rm(file, { force: true }), rm(`${file}.type`, { force: true })]);
  }

  private fileFor(key: string): string {
    assertContentKey(key);
    return path.join(this.root, ...key.split('/'));
  }
}
