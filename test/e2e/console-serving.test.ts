import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/default-config.js';
import { insertKey } from '../support/admin-keys.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { pollUntilDone, quickVideoSettings, temporaryContentDirectory } from '../support/video-jobs.js';

/**
 * How the gateway serves the console (`/console`, from the built files in dist/console) and the
 * signed video URLs the console's players use: security headers, caching, client routes, and a
 * content URL refused without its signature or with a changed one.
 */

let gateway: TestGateway;
let admin: { id: string; secret: string };

beforeAll(async () => {
  gateway = await startTestGateway({ ...defaultConfig({}), videos: quickVideoSettings, content: { dir: temporaryContentDirectory() } });
  admin = await insertKey(gateway.services.storage, 'console admin', true);
});
afterAll(async () => {
  await gateway.close();
});

function assetPaths(html: string): string[] {
  return [...html.matchAll(/(?:src|href)="(\/console\/assets\/[^"]+)"/g)].map((match) => match[1] as string);
}

describe('the console files', () => {
  it('answers /console with the app page under a strict Content-Security-Policy and no caching', async () => {
    const response = await fetch(`${gateway.url}/console`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    const policy = response.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("default-src 'self'");
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("style-src 'self'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toContain('unsafe-inline');
    expect(policy).not.toContain('unsafe-eval');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    const html = await response.text();
    // No inline script or style for the policy to refuse: only the bundled files.
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/<style|style=/);
    expect(assetPaths(html)).toHaveLength(2);
  });

  it('answers a page of the app (a client route) with the same page, so links and reloads work', async () => {
    const root = await (await fetch(`${gateway.url}/console/`)).text();
    for (const path of ['/console/keys', '/console/videos', '/console/some/deeper/page']) {
      const response = await fetch(`${gateway.url}${path}`);
      expect(response.status).toBe(200);
      expect(await response.text()).toBe(root);
    }
  });

  it('serves the hashed script and stylesheet for a year, with their types, and refuses unknown assets', async () => {
    const html = await (await fetch(`${gateway.url}/console`)).text();
    for (const path of assetPaths(html)) {
      const response = await fetch(`${gateway.url}${path}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(response.headers.get('content-type')).toBe(path.endsWith('.js') ? 'text/javascript; charset=utf-8' : 'text/css; charset=utf-8');
      expect(response.headers.get('content-security-policy')).toContain("default-src 'self'");
      const body = await response.text();
      // Bundled: nothing is fetched from another origin at run time.
      expect(body).not.toMatch(/https?:\/\/(?:cdn|unpkg|jsdelivr)/);
    }
    const missing = await fetch(`${gateway.url}/console/assets/app-NOTBUILT.js`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toContain('application/json');
  });

  it('answers HEAD without a body and refuses other methods', async () => {
    const head = await fetch(`${gateway.url}/console/keys`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const post = await fetch(`${gateway.url}/console`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });

  it('leaves paths that only start alike to the rest of the gateway', async () => {
    expect((await fetch(`${gateway.url}/consoles`)).status).toBe(404);
  });
});

describe('signed video URLs for the console', () => {
  let urls: { video: string; thumbnail: string };
  let jobId: string;

  beforeAll(async () => {
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: admin.secret, maxRetries: 0 });
    const created = await client.videos.create({ model: 'sim-video', prompt: 'a harbour at noon [video-ms:600]', seconds: '4', size: '1280x720' });
    jobId = created.id;
    expect((await pollUntilDone(client, jobId)).video.status).toBe('completed');
    const list = (await (await fetch(`${gateway.url}/admin/videos`, { headers: { authorization: `Bearer ${admin.secret}` } })).json()) as {
      data: { id: string; content_urls: { video: string; thumbnail: string } | null }[];
    };
    const job = list.data.find((item) => item.id === jobId);
    expect(job?.content_urls).not.toBeNull();
    urls = job?.content_urls as { video: string; thumbnail: string };
  });

  it('lists a finished job with keyless URLs of its video and thumbnail that play without a header', async () => {
    expect(urls.video).toMatch(new RegExp(`^/admin/videos/${jobId}/content\\?variant=video&expires=\\d+&signature=[A-Za-z0-9_-]+$`));
    const video = await fetch(`${gateway.url}${urls.video}`);
    expect(video.status).toBe(200);
    expect(video.headers.get('content-type')).toBe('video/mp4');
    expect((await video.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    const ranged = await fetch(`${gateway.url}${urls.video}`, { headers: { range: 'bytes=0-99' } });
    expect(ranged.status).toBe(206);
    const thumbnail = await fetch(`${gateway.url}${urls.thumbnail}`);
    expect(thumbnail.status).toBe(200);
    expect(thumbnail.headers.get('content-type')).toMatch(/^image\//);
  });

  it('refuses the content without a signature, with a changed one, for another variant or another job', async () => {
    const unsigned = await fetch(`${gateway.url}/admin/videos/${jobId}/content`);
    expect(unsigned.status).toBe(401);
    const signature = new URL(urls.video, gateway.url).searchParams.get('signature') ?? '';
    const changed = urls.video.replace(signature, `${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`);
    expect((await fetch(`${gateway.url}${changed}`)).status).toBe(403);
    // The video's signature does not open the spritesheet (or the thumbnail).
    expect((await fetch(`${gateway.url}${urls.video.replace('variant=video', 'variant=thumbnail')}`)).status).toBe(403);
    const later = urls.video.replace(/expires=(\d+)/, (_match, expires: string) => `expires=${Number(expires) + 3600}`);
    expect((await fetch(`${gateway.url}${later}`)).status).toBe(403);
    const otherJob = urls.video.replace(jobId, `video_${'0'.repeat(48)}`);
    expect((await fetch(`${gateway.url}${otherJob}`)).status).toBe(403);
  });

  it('refuses an expired signature with 403', async () => {
    const past = Math.floor(Date.now() / 1000) - 10;
    const signature = gateway.services.contentUrlSigner.sign(`admin video\n${jobId}\nvideo`, past);
    const expired = await fetch(`${gateway.url}/admin/videos/${jobId}/content?variant=video&expires=${past}&signature=${signature}`);
    expect(expired.status).toBe(403);
    expect(((await expired.json()) as { error: { message: string } }).error.message).toContain('expired');
  });
});
