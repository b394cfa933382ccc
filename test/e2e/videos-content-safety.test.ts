import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { LedgerEntry } from '../../src/metering/ledger-entry.js';
import { insertKey } from '../support/admin-keys.js';
import { type AnswerReply, type ReceivedRequest, type ScriptedUpstream, startScriptedUpstream } from '../support/scripted-upstream/index.js';
import { readFixture, readFixtureBytes } from '../support/fixtures.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { pollUntilDone, quickVideoSettings, temporaryContentDirectory } from '../support/video-jobs.js';

/**
 * What a video upstream hands back is kept and served only as video or image: a job whose
 * content comes as HTML, from an address inside the gateway's network, or larger than the
 * configured cap ends failed and free, and whatever is served carries `nosniff` and a sandboxing
 * Content-Security-Policy, so no upstream can run script on the gateway's origin.
 */

const mp4 = readFixtureBytes('generated/upstream-video-320x180-4s.mp4');
const queued = readFixture('openai/videos/observed-one-api-readme.queued.json');
const upstreamId = (JSON.parse(queued) as { id: string }).id;
const completed = readFixture('openai/videos/observed-one-api-readme.completed.json').replace(/video_[0-9a-f]+/, upstreamId);
const script = '<!doctype html><html><body><script>fetch("/admin/keys")</script></body></html>';
const variants = [{ mode: 'text-to-video', resolution: '720p', aspect_ratio: '16:9', seconds: [4], usd_per_second: '0.40' }];

let upstream: ScriptedUpstream;
let storage: ScriptedUpstream;
/** Downloads refuse private addresses other than the provider's own; the default size cap. */
let strict: TestGateway;
/** A size cap smaller than the recorded video. */
let capped: TestGateway;
/** An admin key of each gateway (admin keys call every /v1 endpoint too). */
const adminSecrets = new Map<TestGateway, string>();
/** What the upstream's content URL answers, by variant. */
let content: (variant: string) => AnswerReply;

function pathOf(request: ReceivedRequest): string {
  return request.path.split('?', 1)[0] ?? '';
}

function startVideoGateway(videos: Record<string, unknown>): Promise<TestGateway> {
  return startTestGateway({
    content: { dir: temporaryContentDirectory() },
    videos: { ...quickVideoSettings, ...videos },
    providers: { 'openai-videos': { type: 'openai', base_url: `${upstream.url}/v1`, api_key: 'upstream-secret' } },
    models: [{ id: 'clip', output_modality: 'video', routes: [{ provider: 'openai-videos', model: 'sora-2' }], video: { variants }, price: { effective_from: '2026-01-01' } }],
  });
}

beforeAll(async () => {
  [upstream, storage] = await Promise.all([startScriptedUpstream(), startScriptedUpstream()]);
  storage.reply({ contentType: 'video/mp4', body: mp4 });
  upstream.reply((request) => {
    if (request.method === 'POST' && pathOf(request) === '/v1/videos') return { body: queued };
    if (request.method === 'GET' && pathOf(request) === `/v1/videos/${upstreamId}`) return { body: completed };
    if (request.method === 'GET' && pathOf(request) === `/v1/videos/${upstreamId}/content`) {
      return content(new URL(request.path, 'http://upstream').searchParams.get('variant') ?? 'video');
    }
    return { status: 404, body: '{"error":{"message":"not found","type":"invalid_request_error"}}' };
  });
  [strict, capped] = await Promise.all([startVideoGateway({ download_private_addresses: 'refuse' }), startVideoGateway({ download_max_bytes: 4096 })]);
  for (const gateway of [strict, capped]) adminSecrets.set(gateway, (await insertKey(gateway.services.storage, 'admin', true)).secret);
});
afterAll(async () => {
  await Promise.all([strict.close(), capped.close()]);
  await Promise.all([upstream.close(), storage.close()]);
});
beforeEach(() => {
  upstream.requests.length = 0;
  storage.requests.length = 0;
  content = (variant) => (variant === 'video' ? { contentType: 'video/mp4', body: mp4 } : { contentType: 'image/webp', body: Buffer.from('RIFF....WEBPVP8 ') });
});

function clientOf(gateway: TestGateway): OpenAI {
  return new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: adminSecrets.get(gateway) ?? '', maxRetries: 0 });
}

async function ledgerEntriesOf(gateway: TestGateway, jobId: string): Promise<LedgerEntry[]> {
  return (await gateway.services.storage.ledger.list({ limit: 10_000 })).filter((entry) => entry.requestId === jobId);
}

/** A job run to its end through the SDK. */
async function runJob(gateway: TestGateway) {
  const client = clientOf(gateway);
  const created = await client.videos.create({ model: 'clip', prompt: 'aurora', seconds: '4', size: '1280x720' });
  const { video } = await pollUntilDone(client, created.id);
  return { client, video };
}

/** The job failed with a content refusal, nothing was charged, and it has no content to serve. */
async function expectRefusedAndFree(gateway: TestGateway, video: { id: string; status: string; error: unknown }, mentions: string): Promise<void> {
  expect(video.status).toBe('failed');
  expect(video.error).toMatchObject({ code: 'upstream_content_refused' });
  expect((video.error as { message: string }).message).toContain(mentions);
  expect(await ledgerEntriesOf(gateway, video.id)).toMatchObject([{ costNanoUsd: 0n, videoSeconds: 0 }]);
  const served = await fetch(`${gateway.url}/v1/videos/${video.id}/content`, { headers: { authorization: `Bearer ${adminSecrets.get(gateway) ?? ''}` } });
  expect(served.status).toBe(404);
  expect(served.headers.get('content-type')).toContain('application/json');
}

describe('content an upstream hands back', () => {
  it('as HTML with a script: the job fails, free, and nothing of it is served', async () => {
    content = () => ({ contentType: 'text/html; charset=utf-8', body: script });
    const { video } = await runJob(strict);
    await expectRefusedAndFree(strict, video, 'text/html');
  });

  it('a thumbnail as HTML is left out; the video is served with nosniff and a sandboxing CSP, to its owner and to admins', async () => {
    content = (variant) => (variant === 'video' ? { contentType: 'video/mp4', body: mp4 } : { contentType: 'text/html', body: script });
    const { client, video } = await runJob(strict);
    expect(video.status).toBe('completed');
    const downloaded = await client.videos.downloadContent(video.id);
    expect(downloaded.headers.get('content-type')).toBe('video/mp4');
    expect(downloaded.headers.get('x-content-type-options')).toBe('nosniff');
    expect(downloaded.headers.get('content-security-policy')).toBe('sandbox');
    expect(Buffer.from(await downloaded.arrayBuffer()).equals(mp4)).toBe(true);
    const headers = { authorization: `Bearer ${adminSecrets.get(strict) ?? ''}` };
    const thumbnail = await fetch(`${strict.url}/v1/videos/${video.id}/content?variant=thumbnail`, { headers });
    expect(thumbnail.status).toBe(404);

    const asAdmin = await fetch(`${strict.url}/admin/videos/${video.id}/content`, { headers });
    expect(asAdmin.status).toBe(200);
    expect(asAdmin.headers.get('x-content-type-options')).toBe('nosniff');
    expect(asAdmin.headers.get('content-security-policy')).toBe('sandbox');
    await asAdmin.arrayBuffer();
    const listed = (await (await fetch(`${strict.url}/admin/videos`, { headers })).json()) as { data: { id: string; content_urls: Record<string, string> | null }[] };
    const signed = listed.data.find((job) => job.id === video.id)?.content_urls?.video ?? '';
    expect(signed).not.toBe('');
    const bySignedUrl = await fetch(`${strict.url}${signed}`);
    expect(bySignedUrl.status).toBe(200);
    expect(bySignedUrl.headers.get('content-security-policy')).toBe('sandbox');
    await bySignedUrl.arrayBuffer();
  });

  it('through a redirect to another loopback server: refused, the server is never asked, the job is free', async () => {
    content = () => ({ status: 302, headers: { location: `${storage.url}/signed/video.mp4` } });
    const { video } = await runJob(strict);
    await expectRefusedAndFree(strict, video, 'private');
    expect(storage.requests).toEqual([]);
  });

  it('through a redirect to a 10.x address: refused without connecting, the job is free', async () => {
    content = () => ({ status: 307, headers: { location: 'http://10.20.30.40/bucket/video.mp4' } });
    const startedAt = Date.now();
    const { video } = await runJob(strict);
    await expectRefusedAndFree(strict, video, 'private');
    expect(JSON.stringify(video.error)).not.toContain('10.20.30.40');
    expect(Date.now() - startedAt).toBeLessThan(10_000);
  });

  it('through a redirect to a loopback name (localhost): refused as its address is', async () => {
    content = () => ({ status: 302, headers: { location: `${storage.url.replace('127.0.0.1', 'localhost')}/signed/video.mp4` } });
    const { video } = await runJob(strict);
    await expectRefusedAndFree(strict, video, 'private');
    expect(storage.requests).toEqual([]);
  });

  it('larger than download_max_bytes, announced by its length: the job fails, free', async () => {
    expect(mp4.length).toBeGreaterThan(4096);
    const { video } = await runJob(capped);
    await expectRefusedAndFree(capped, video, '4096');
  });

  it('larger than download_max_bytes, streamed without a length: the job fails, free, and nothing is kept', async () => {
    const pieces = [mp4.subarray(0, 3000), mp4.subarray(3000)].map((piece) => piece.toString('latin1'));
    content = () => ({ contentType: 'video/mp4', pieces, headers: { 'transfer-encoding': 'chunked' } });
    const { video } = await runJob(capped);
    await expectRefusedAndFree(capped, video, '4096');
    expect(await capped.services.contentStore.get(`videos/${video.id}/video`)).toBeUndefined();
  });
});
