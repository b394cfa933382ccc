import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContentReader } from '../content-store/content-store.js';
import { ContentUrlSigner } from '../content-store/content-url-signer.js';
import { LocalDirectoryContentStore } from '../content-store/local-directory-content-store.js';
import { ImageContentPublisher } from './image-content-publisher.js';

let directory: string;
let store: LocalDirectoryContentStore;
let clock = new Date('2026-03-01T12:00:00.250Z');
const signer = new ContentUrlSigner('a-test-secret-of-at-least-thirty-two-characters');

beforeAll(async () => {
  directory = await mkdtemp(path.join(os.tmpdir(), 'switchyard-publisher-'));
  store = new LocalDirectoryContentStore(directory);
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

function publisher(ttlSeconds = 600): ImageContentPublisher {
  return new ImageContentPublisher(store, signer, ttlSeconds, () => clock);
}

async function bytesOf(content: ContentReader): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of content.body) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** The parts of a published URL the endpoint is given. */
function partsOf(url: string): { id: string; expires: string | undefined; signature: string | undefined } {
  const parsed = new URL(url);
  return {
    id: parsed.pathname.split('/').pop() ?? '',
    expires: parsed.searchParams.get('expires') ?? undefined,
    signature: parsed.searchParams.get('signature') ?? undefined,
  };
}

describe('image content publisher', () => {
  it('stores the image under a fresh id and hands out a signed URL under the base URL', async () => {
    const images = publisher();
    const published = await images.publish(Buffer.from('png bytes'), 'image/png', 'https://gateway.example/');
    expect(published.url).toMatch(/^https:\/\/gateway\.example\/v1\/images\/content\/img_[A-Za-z0-9_-]{24}\.png\?expires=\d+&signature=[A-Za-z0-9_-]{43}$/);
    // Rounded up to whole seconds, so the URL lasts at least the ttl.
    expect(published.expiresAt).toEqual(new Date('2026-03-01T12:10:01.000Z'));
    const { id, expires, signature } = partsOf(published.url);
    expect(Number(expires)).toBe(published.expiresAt.getTime() / 1000);
    const opened = await images.open(id, expires, signature);
    if (opened.outcome !== 'found') throw new Error(`expected the image, got ${opened.outcome}`);
    expect(opened.content.contentType).toBe('image/png');
    expect((await bytesOf(opened.content)).toString()).toBe('png bytes');
    expect(images.secondsLeft(opened.expiresAt)).toBe(600);
  });

  it('gives every publish its own id, even of the same bytes', async () => {
    const images = publisher();
    const first = await images.publish(Buffer.from('same'), 'image/webp', 'http://127.0.0.1:8787');
    const second = await images.publish(Buffer.from('same'), 'image/webp', 'http://127.0.0.1:8787');
    expect(partsOf(first.url).id).not.toBe(partsOf(second.url).id);
    expect(partsOf(first.url).id).toMatch(/\.webp$/);
  });

  it('names the extension after the media type and refuses what is not an image', async () => {
    const images = publisher();
    expect((await images.publish(Buffer.from('j'), 'image/JPEG; q=1', 'http://h')).url).toMatch(/\.jpeg\?/);
    await expect(images.publish(Buffer.from('<svg/>'), 'image/svg+xml', 'http://h')).rejects.toThrow(RangeError);
    await expect(images.publish(Buffer.from('x'), 'text/html', 'http://h')).rejects.toThrow(RangeError);
  });

  it('refuses a URL once expired, a tampered one, and an id it never made, without asking the store', async () => {
    const images = publisher(60);
    const published = await images.publish(Buffer.from('short-lived'), 'image/png', 'http://h');
    const { id, expires, signature } = partsOf(published.url);
    expect(await images.open(id, String(Number(expires) + 60), signature)).toEqual({ outcome: 'refused', reason: 'forged' });
    expect(await images.open('../../etc/passwd', expires, signature)).toEqual({ outcome: 'refused', reason: 'forged' });
    clock = new Date(published.expiresAt.getTime());
    try {
      expect(await images.open(id, expires, signature)).toEqual({ outcome: 'refused', reason: 'expired' });
    } finally {
      clock = new Date('2026-03-01T12:00:00.250Z');
    }
  });

  it('answers missing for a correctly signed URL whose content is gone', async () => {
    const images = publisher();
    const published = await images.publish(Buffer.from('gone soon'), 'image/png', 'http://h');
    const { id, expires, signature } = partsOf(published.url);
    await store.delete(`images/${id}`);
    expect(await images.open(id, expires, signature)).toEqual({ outcome: 'missing' });
  });
});
