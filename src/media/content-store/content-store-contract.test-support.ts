/**
 * What every content store must do, run against each implementation (a local directory, an
 * S3-compatible bucket), so they are interchangeable. A store that lists page by page should be
 * opened with a page size well under the 23 items of the paging case.
 */
import { describe, expect, it } from 'vitest';
import type { ContentEntry, ContentReader, ContentStore } from './content-store.js';

async function bytesOf(reader: ContentReader | undefined): Promise<Buffer> {
  if (reader === undefined) throw new Error('no content');
  const chunks: Uint8Array[] = [];
  for await (const chunk of reader.body) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** Chunks of `size` bytes (chunk n filled with n), each after a pause, as a slow upstream sends them. */
async function* slowly(count: number, size: number, pauseMs: number): AsyncIterable<Uint8Array> {
  for (let index = 0; index < count; index += 1) {
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
    yield Buffer.alloc(size, index + 1);
  }
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

    it('answers nothing for a key never stored, whole or ranged, and removes it without complaint', async () => {
      const store = await open();
      expect(await store.get('images/never/0.png')).toBeUndefined();
      expect(await store.get('images/never/0.png', { start: 0, end: 9 })).toBeUndefined();
      await store.delete('images/never/0.png');
    });

    it('stores a slowly produced stream larger than one upload part, and serves ranges across the parts', async () => {
      const store = await open();
      const mebibyte = 1024 * 1024;
      // Seven chunks of 1 MiB plus a short tail: past the 5 MiB where a bucket upload turns multipart.
      async function* source(): AsyncIterable<Uint8Array> {
        yield* slowly(7, mebibyte, 15);
        yield Buffer.from('tail');
      }
      const stored = await store.put('videos/video_big/content.mp4', source(), 'video/mp4', { expiresAt: new Date('2031-05-06T07:08:09.000Z') });
      const size = 7 * mebibyte + 4;
      expect(stored).toEqual({ key: 'videos/video_big/content.mp4', contentType: 'video/mp4', size });
      const whole = await bytesOf(await store.get('videos/video_big/content.mp4'));
      expect(whole.length).toBe(size);
      for (let index = 0; index < 7; index += 1) expect(whole[index * mebibyte + 12_345], `chunk ${index}`).toBe(index + 1);
      expect(whole.subarray(-4).toString()).toBe('tail');
      const across = await store.get('videos/video_big/content.mp4', { start: 5 * mebibyte - 2, end: 5 * mebibyte + 1 });
      expect(across).toMatchObject({ contentType: 'video/mp4', size, range: { start: 5 * mebibyte - 2, end: 5 * mebibyte + 1 } });
      expect([...(await bytesOf(across))]).toEqual([5, 5, 6, 6]);
      const listed: ContentEntry[] = [];
      for await (const entry of store.list()) if (entry.key === 'videos/video_big/content.mp4') listed.push(entry);
      expect(listed).toMatchObject([{ size, expiresAt: new Date('2031-05-06T07:08:09.000Z') }]);
    });

    it('lists every item once when there are more than one listing page holds', async () => {
      const store = await open();
      const keys = Array.from({ length: 23 }, (_, index) => `paged/item_${String(index).padStart(2, '0')}/0.png`);
      await Promise.all(keys.map((key, index) => store.put(key, Buffer.alloc(index + 1), 'image/png', { expiresAt: new Date(Date.UTC(2030, 0, 1 + index)) })));
      const listed: ContentEntry[] = [];
      for await (const entry of store.list()) if (entry.key.startsWith('paged/')) listed.push(entry);
      expect(listed.map((entry) => entry.key).sort()).toEqual(keys);
      for (const entry of listed) {
        const index = keys.indexOf(entry.key);
        expect(entry, entry.key).toMatchObject({ size: index + 1, expiresAt: new Date(Date.UTC(2030, 0, 1 + index)) });
        expect(entry.storedAt).toBeInstanceOf(Date);
      }
    });

    it('keeps the expiry of the latest write of a key, or none', async () => {
      const store = await open();
      const listedExpiry = async (): Promise<Date | undefined> => {
        for await (const entry of store.list()) if (entry.key === 'expiry/item/0.png') return entry.expiresAt;
        throw new Error('not listed');
      };
      await store.put('expiry/item/0.png', Buffer.from('same bytes'), 'image/png', { expiresAt: new Date('2030-01-01T00:00:00.000Z') });
      expect(await listedExpiry()).toEqual(new Date('2030-01-01T00:00:00.000Z'));
      await store.put('expiry/item/0.png', Buffer.from('same bytes'), 'image/png', { expiresAt: new Date('2032-02-02T00:00:00.000Z') });
      expect(await listedExpiry()).toEqual(new Date('2032-02-02T00:00:00.000Z'));
      await store.put('expiry/item/0.png', Buffer.from('same bytes'), 'image/png');
      expect(await listedExpiry()).toBeUndefined();
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
