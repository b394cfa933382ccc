import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentUrlSecretSetting } from '../../src/media/content-store/content-url-secret.js';
import { ContentUrlSigner } from '../../src/media/content-store/content-url-signer.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';

/**
 * `response_format: url` as a client sees it (docs/api.md, "Image content URLs"): a published
 * image is fetched from the gateway by its URL alone, with no key; a tampered or expired URL is
 * refused; the URL survives a restart on the same database, whose generated secret a configured
 * one overrides.
 */

let directory: string;
let png: Buffer;
const running: TestGateway[] = [];

beforeAll(async () => {
  directory = mkdtempSync(path.join(os.tmpdir(), 'switchyard-image-urls-'));
  png = await sharp({ create: { width: 8, height: 6, channels: 4, background: { r: 200, g: 30, b: 90, alpha: 1 } } }).png().toBuffer();
});

afterAll(async () => {
  await Promise.all(running.map((gateway) => gateway.close()));
  rmSync(directory, { recursive: true, force: true });
});

/** A gateway on a database file and content directory that outlive it, where no call is keyless. */
async function startGateway(content: Record<string, unknown> = {}): Promise<TestGateway> {
  const gateway = await startTestGateway({
    database: { url: `sqlite:${path.join(directory, 'switchyard.db')}` },
    server: { open_access: 'never' },
    content: { dir: path.join(directory, 'content'), ...content },
  });
  running.push(gateway);
  return gateway;
}

async function stop(gateway: TestGateway): Promise<void> {
  running.splice(running.indexOf(gateway), 1);
  await gateway.close();
}

/** The same URL served by another gateway: the signature covers the image and expiry, not the host. */
function on(gateway: TestGateway, url: string): string {
  const parsed = new URL(url);
  return `${gateway.url}${parsed.pathname}${parsed.search}`;
}

function withQuery(url: string, name: string, value: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set(name, value);
  return parsed.toString();
}

async function errorOf(response: Response): Promise<{ message: string; type: string }> {
  return ((await response.json()) as { error: { message: string; type: string } }).error;
}

describe('image URLs served by the gateway', () => {
  let first: TestGateway;
  let url: string;
  let generatedSecret: string | undefined;

  beforeAll(async () => {
    first = await startGateway();
    const published = await first.services.imageContent.publish(png, 'image/png', first.url);
    url = published.url;
    generatedSecret = await first.services.storage.settings.get(contentUrlSecretSetting);
  });

  it('serves the image without a key, with its type, length, cache lifetime and tag', async () => {
    // No call is keyless on this gateway, yet the image needs no key.
    expect((await fetch(`${first.url}/v1/chat/completions`, { method: 'POST', body: '{}' })).status).toBe(401);
    expect(url.startsWith(`${first.url}/v1/images/content/img_`)).toBe(true);

    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('content-length')).toBe(String(png.length));
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-security-policy')).toBe('sandbox');
    const maxAge = Number(/^private, max-age=(\d+)$/.exec(response.headers.get('cache-control') ?? '')?.[1]);
    expect(maxAge).toBeGreaterThan(3500);
    expect(maxAge).toBeLessThanOrEqual(3601);
    const served = Buffer.from(await response.arrayBuffer());
    expect(served.equals(png)).toBe(true);
    expect(await sharp(served).metadata()).toMatchObject({ format: 'png', width: 8, height: 6 });

    const etag = response.headers.get('etag');
    expect(etag).toMatch(/^"img_.+\.png"$/);
    const revalidated = await fetch(url, { headers: { 'if-none-match': etag ?? '' } });
    expect(revalidated.status).toBe(304);
    expect(await revalidated.text()).toBe('');
  });

  it('answers HEAD with the headers and no body, and refuses other methods', async () => {
    const head = await fetch(url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('image/png');
    expect(head.headers.get('content-length')).toBe(String(png.length));
    expect(await head.text()).toBe('');
    const post = await fetch(url, { method: 'POST' });
    expect(post.status).toBe(405);
  });

  it('refuses a tampered signature, expiry or id alike, before looking for the content', async () => {
    const signature = new URL(url).searchParams.get('signature') ?? '';
    const expires = new URL(url).searchParams.get('expires') ?? '';
    const otherId = url.replace(/img_[A-Za-z0-9_-]{24}/, 'img_AAAAAAAAAAAAAAAAAAAAAAAA');
    const tampered = [
      withQuery(url, 'signature', (signature.startsWith('A') ? 'B' : 'A') + signature.slice(1)),
      withQuery(url, 'expires', String(Number(expires) + 86_400)),
      otherId,
      url.split('?')[0] ?? '',
    ];
    for (const forged of tampered) {
      const response = await fetch(forged);
      expect(response.status, forged).toBe(403);
      expect((await errorOf(response)).message).toMatch(/signature/);
    }
    // The same answer whether or not anything is stored under the id: a forger learns nothing.
    const unknown = await fetch(otherId);
    const known = await fetch(tampered[0] ?? '');
    expect([unknown.status, (await errorOf(unknown)).message]).toEqual([known.status, (await errorOf(known)).message]);
  });

  it('answers 404 for a correctly signed URL whose content is gone', async () => {
    const published = await first.services.imageContent.publish(png, 'image/png', first.url);
    const id = new URL(published.url).pathname.split('/').pop() ?? '';
    await first.services.contentStore.delete(`images/${id}`);
    const response = await fetch(published.url);
    expect(response.status).toBe(404);
  });

  it('keeps serving the URL after a restart on the same database and content directory', async () => {
    expect(generatedSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await stop(first);
    const second = await startGateway();
    try {
      expect(await second.services.storage.settings.get(contentUrlSecretSetting)).toBe(generatedSecret);
      const response = await fetch(on(second, url));
      expect(response.status).toBe(200);
      expect(Buffer.from(await response.arrayBuffer()).equals(png)).toBe(true);
    } finally {
      await stop(second);
    }
  });

  it('signs with content.url_secret when set, leaving the secret in the database unused', async () => {
    const configuredSecret = 'an-operator-chosen-secret-of-32-characters-or-more';
    const configured = await startGateway({ url_secret: configuredSecret });
    try {
      const old = await fetch(on(configured, url));
      expect(old.status).toBe(403);
      const published = await configured.services.imageContent.publish(png, 'image/png', configured.url);
      const parsed = new URL(published.url);
      const id = parsed.pathname.split('/').pop() ?? '';
      const verdict = new ContentUrlSigner(configuredSecret).verify(id, parsed.searchParams.get('expires') ?? undefined, parsed.searchParams.get('signature') ?? undefined, new Date());
      expect(verdict).toBe('valid');
      expect((await fetch(published.url)).status).toBe(200);
      expect(await configured.services.storage.settings.get(contentUrlSecretSetting)).toBe(generatedSecret);
    } finally {
      await stop(configured);
    }
  });
});

describe('an image URL past its expiry', () => {
  it('is served until content.url_ttl_seconds have passed, then refused as expired', async () => {
    const gateway = await startGateway({ url_ttl_seconds: 1 });
    try {
      const published = await gateway.services.imageContent.publish(png, 'image/png', gateway.url);
      expect((await fetch(published.url)).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, published.expiresAt.getTime() - Date.now() + 50));
      const response = await fetch(published.url);
      expect(response.status).toBe(403);
      expect((await errorOf(response)).message).toMatch(/expired/);
    } finally {
      await stop(gateway);
    }
  });
});
