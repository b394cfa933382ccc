/**
 * What every content store must do, run against each implementation (a local directory here; a
 * bucket wherever one is configured), so they are interchangeable.
 */
import { describe, expect, it } from 'vitest';
import type { ContentReader, ContentStore } from './content-store.js';

async function bytesOf(reader: ContentReader | undefined): Promise<Buffer> {
  if (reader === undefined) throw new Error('no content');
  const chunks: Uint8Array[] = [];
  for await (const chunk of reader.body) chunks.push(chunk);
  return Buffer.concat(chunks);
}

async function* chunked(content: Buffer, size: number): AsyncIterable<Uint8Array> {
  for (let offset = 0; offset < content.length; offset += size) yield content.subarray(offset, offset + size);
}

export function describeContentStore(name: string, open: () => Promise<ContentStore>): void {
  describe(`content store contract: ${name}`, () => {
    it('gives back exactly the bytes and type it was given', async () => {
      const store = await open();
      const content = Buffer.from(Array.from({ length: 70_000 }, (_, index) => index % 251));
      const stored = await store.put('images/img_1/0.png', content, 'image/png');
      expect(stored).toEqual({ key: 'images/img_1/0.png', contentType: 'image/png', size: 70_000 });
      const reader = await store.get('images/img_1/0.png');
      expect(reader).toMatchObject({ contentType: 'image/png', size: 70_000, range: { start: 0, end: 69_999 } });
      expect((await bytesOf(reader)).equals(content)).toBe(true);
    });

    it('stores a stream of chunks without holding it whole', async () => {
      const store = await open();
      const content = Buffer.alloc(300_000, 7);
      await store.put('videos/video_1/content.mp4', chunked(content, 16_384), 'video/mp4');
      expect((await bytesOf(await store.get('videos/video_1/content.mp4'))).equals(content)).toBe(true);
    });

    it('serves a byte range, clamped to the content, and refuses one outside it', async () => {
      const store = await open();
      await store.put('videos/video_2/content.mp4', Buffer.from('0123456789'), 'video/mp4');
      const middle = await store.get('videos/video_2/content.mp4', { start: 2, end: 5 });
      expect(middle?.range).toEqual({ start: 2, end: 5 });
      expect((await bytesOf(middle)).toString()).toBe('2345');
      const tail = await store.get('videos/video_2/content.mp4', { start: 7, end: 100 });
      expect((await bytesOf(tail)).toString()).toBe('789');
      expect((await bytesOf(await store.get('videos/video_2/content.mp4', { start: 8 }))).toString()).toBe('89');
      await expect(store.get('videos/video_2/content.mp4', { start: 10 })).rejects.toThrow(RangeError);
    });

    it('replaces content under the same key and forgets deleted content', async () => {
      const store = await open();
      await store.put('images/img_2/0.webp', Buffer.from('first'), 'image/webp');
      await store.put('images/img_2/0.webp', Buffer.from('second!'), 'image/jpeg');
      const replaced = await store.get('images/img_2/0.webp');
      expect(replaced?.contentType).toBe('image/jpeg');
      expect((await bytesOf(replaced)).toString()).toBe('second!');
      await store.delete('images/img_2/0.webp');
      expect(await store.get('images/img_2/0.webp')).toBeUndefined();
      await store.delete('images/img_2/0.webp');
    });

    it('answers nothing for a key never stored', async () => {
      const store = await open();
      expect(await store.get('images/never/0.png')).toBeUndefined();
    });

    it('refuses keys that could name something outside the store', async () => {
      const store = await open();
      for (const key of ['../escape', 'images/../../etc/passwd', '/absolute', 'images//double', 'images/a b', '']) {
        await expect(store.put(key, Buffer.from('x'), 'text/plain'), key).rejects.toThrow(RangeError);
        await expect(store.get(key), key).rejects.toThrow(RangeError);
      }
    });

    it('leaves the old content whole when a write fails part way', async () => {
      const store = await open();
      await store.put('videos/video_3/content.mp4', Buffer.from('complete'), 'video/mp4');
      async function* failing(): AsyncIterable<Uint8Array> {
        yield Buffer.from('par');
        throw new Error('upstream went away');
      }
      await expect(store.put('videos/video_3/content.mp4', failing(), 'video/mp4')).rejects.toThrow('upstream went away');
      expect((await bytesOf(await store.get('videos/video_3/content.mp4'))).toString()).toBe('complete');
    });

    it('lists what it holds, with sizes and expiry, and forgets what is deleted', async () => {
      const store = await open();
      const expiresAt = new Date('2030-01-02T03:04:05.000Z');
      await store.put('listing/a/one.bin', Buffer.alloc(10, 1), 'application/octet-stream', { expiresAt });
      await store.put('listing/two.bin', Buffer.alloc(20, 2), 'application/octet-stream');
      const listed = async (): Promise<Map<string, { size: number; expiresAt?: Date }>> => {
        const entries = new Map<string, { size: number; expiresAt?: Date }>();
        for await (const entry of store.list()) if (entry.key.startsWith('listing/')) entries.set(entry.key, entry);
        return entries;
      };
      const before = await listed();
      expect([...before.keys()].sort()).toEqual(['listing/a/one.bin', 'listing/two.bin']);
      expect(before.get('listing/a/one.bin')).toMatchObject({ size: 10, expiresAt });
      expect(before.get('listing/two.bin')?.size).toBe(20);
      expect(before.get('listing/two.bin')?.expiresAt).toBeUndefined();
      await store.delete('listing/a/one.bin');
      expect([...(await listed()).keys()]).toEqual(['listing/two.bin']);
    });
  });
}
