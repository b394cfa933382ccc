import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readFixtureBytes } from '../../../test/support/fixtures.js';
import { startScriptedUpstream, type ScriptedUpstream } from '../../../test/support/scripted-upstream/index.js';
import { geminiAdapter } from '../../providers/gemini/index.js';
import type { ProviderAdapter, UpstreamTarget } from '../../providers/provider-adapter.js';
import { LocalDirectoryContentStore } from '../content-store/local-directory-content-store.js';
import { carriesCredential, downloadVideoContent, type DownloadTarget } from './download-video-content.js';

const mp4 = readFixtureBytes('generated/upstream-video-320x180-4s.mp4');
const credential = { 'x-goog-api-key': 'provider-secret', 'x-operator-header': 'operator-value' };

let api: ScriptedUpstream;
let storage: ScriptedUpstream;
let directory: string;
let store: LocalDirectoryContentStore;

beforeAll(async () => {
  [api, storage] = await Promise.all([startScriptedUpstream(), startScriptedUpstream()]);
  for (const server of [api, storage]) server.reply({ contentType: 'video/mp4', body: mp4 });
  directory = mkdtempSync(path.join(tmpdir(), 'switchyard-download-'));
  store = new LocalDirectoryContentStore(directory);
});
afterAll(async () => {
  await Promise.all([api.close(), storage.close()]);
  rmSync(directory, { recursive: true, force: true });
});
beforeEach(() => {
  api.requests.length = 0;
  storage.requests.length = 0;
});

/** The Gemini adapter, its video capability claiming (or not) the storage host for its credential. */
function adapterClaiming(claims: boolean): ProviderAdapter {
  const videos = geminiAdapter.videos;
  if (videos === undefined) throw new Error('the Gemini adapter makes videos');
  return { ...geminiAdapter, videos: { ...videos, credentialedContentHost: (url) => claims && url.origin === new URL(storage.url).origin } };
}

function download(url: string, adapter: ProviderAdapter): Promise<unknown> {
  const upstream: UpstreamTarget = { providerName: 'google', kind: 'gemini', baseUrl: api.url, apiKey: 'provider-secret', model: 'veo-3.0-generate-001' };
  const target: DownloadTarget = { url, variant: 'video', headers: credential, adapter, upstream, timeoutMs: 5_000, maxBytes: 10_000_000, privateAddresses: 'allow' };
  return downloadVideoContent(target, store, `videos/${Math.random().toString(36).slice(2)}/video`, new Date(Date.now() + 60_000));
}

describe('the provider credential on a content download', () => {
  it('goes to the provider’s own API origin', async () => {
    await download(`${api.url}/v1beta/files/abc:download?alt=media`, adapterClaiming(false));
    expect(api.requests[0]?.headers).toMatchObject(credential);
  });

  it('goes to no other host a link names, nor to one a redirect leads to', async () => {
    await download(`${storage.url}/cdn/video.mp4`, adapterClaiming(false));
    api.reply({ status: 302, headers: { location: `${storage.url}/signed/video.mp4` } });
    await download(`${api.url}/v1beta/files/abc:download`, adapterClaiming(false));
    api.reply({ contentType: 'video/mp4', body: mp4 });
    expect(storage.requests).toHaveLength(2);
    for (const request of storage.requests) {
      expect(request.headers['x-goog-api-key']).toBeUndefined();
      expect(request.headers['x-operator-header']).toBeUndefined();
    }
  });

  it('goes to a host the adapter claims for it, as Vertex claims Cloud Storage', async () => {
    await download(`${storage.url}/storage/v1/b/bucket/o/video.mp4?alt=media`, adapterClaiming(true));
    expect(storage.requests[0]?.headers).toMatchObject(credential);
  });
});

describe('which hosts are the provider’s own', () => {
  it('counts the vendor’s public API origin with the configured one, so a proxied provider’s file links still reach its API', () => {
    const proxied: UpstreamTarget = { providerName: 'google', kind: 'gemini', baseUrl: 'https://proxy.example.com/google', apiKey: 'k', model: 'veo-3.0-generate-001' };
    const own = (url: string) => carriesCredential(new URL(url), geminiAdapter, proxied);
    expect(own('https://proxy.example.com/v1beta/files/abc:download')).toBe(true);
    expect(own('https://generativelanguage.googleapis.com/v1beta/files/abc:download?alt=media')).toBe(true);
    expect(own('https://storage.googleapis.com/bucket/video.mp4')).toBe(false);
    expect(own('https://generativelanguage.googleapis.com.example.com/v1beta/files/abc')).toBe(false);
  });
});
