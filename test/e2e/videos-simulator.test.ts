import OpenAI, { NotFoundError, toFile } from 'openai';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/default-config.js';
import type { LedgerEntry } from '../../src/metering/ledger-entry.js';
import { ffprobe } from '../support/ffprobe.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { pollUntilDone, quickVideoSettings, temporaryContentDirectory } from '../support/video-jobs.js';

/**
 * Video jobs end to end against the built-in simulator through the real `openai` SDK: submit,
 * poll, list, download (checked by ffprobe), ranges, remix, delete, failures, and one ledger entry
 * per job charged to the nano-USD at the variant's price per second delivered.
 */

let gateway: TestGateway;
let client: OpenAI;

beforeAll(async () => {
  gateway = await startTestGateway({ ...defaultConfig({}), videos: quickVideoSettings, content: { dir: temporaryContentDirectory() } });
  client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'unused', maxRetries: 0 });
});
afterAll(async () => {
  await gateway.close();
});

async function ledgerEntriesOf(jobId: string): Promise<LedgerEntry[]> {
  return (await gateway.services.storage.ledger.list({ limit: 10_000 })).filter((entry) => entry.requestId === jobId);
}

const quick = '[video-ms:1200]';

describe('a text-to-video job on the simulator', () => {
  let jobId: string;

  it('is submitted as the SDK sends it and completes with rising progress', async () => {
    const created = await client.videos.create({ model: 'sim-video', prompt: `a lighthouse at dusk ${quick}`, seconds: '4', size: '1280x720' });
    expect(created).toMatchObject({ object: 'video', model: 'sim-video', status: 'queued', progress: 0, seconds: '4', size: '1280x720', error: null });
    expect(created.id).toMatch(/^video_[0-9a-f]{48}$/);
    jobId = created.id;
    const { video, progress, statuses } = await pollUntilDone(client, jobId);
    expect(video.status).toBe('completed');
    expect(video.progress).toBe(100);
    expect(video.completed_at).toBeGreaterThanOrEqual(video.created_at);
    expect(video.expires_at).toBeGreaterThan(video.completed_at ?? 0);
    expect(progress).toEqual([...progress].sort((left, right) => left - right));
    expect(statuses).toContain('in_progress');
    expect((video as unknown as { usage: unknown }).usage).toEqual({ seconds: 4, cost_usd: '0.40' });
  });

  it('downloads as an MP4 that ffprobe reads with the asked duration and size', async () => {
    const bytes = Buffer.from(await (await client.videos.downloadContent(jobId)).arrayBuffer());
    const probed = await ffprobe(bytes);
    expect(probed.codec).toBe('h264');
    expect(probed).toMatchObject({ width: 1280, height: 720 });
    expect(Math.abs(probed.durationSeconds - 4)).toBeLessThan(0.1);
  });

  it('serves a byte range with 206 and the right bytes, and a strong ETag', async () => {
    const whole = await fetch(`${gateway.url}/v1/videos/${jobId}/content`);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('video/mp4');
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    const bytes = Buffer.from(await whole.arrayBuffer());
    const etag = whole.headers.get('etag');
    expect(etag).toMatch(/^"video_/);

    const part = await fetch(`${gateway.url}/v1/videos/${jobId}/content`, { headers: { range: 'bytes=100-1123' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 100-1123/${bytes.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(100, 1124))).toBe(true);

    const tail = await fetch(`${gateway.url}/v1/videos/${jobId}/content`, { headers: { range: 'bytes=-16' } });
    expect(tail.status).toBe(206);
    expect(Buffer.from(await tail.arrayBuffer()).equals(bytes.subarray(bytes.length - 16))).toBe(true);

    const outside = await fetch(`${gateway.url}/v1/videos/${jobId}/content`, { headers: { range: `bytes=${bytes.length}-` } });
    expect(outside.status).toBe(416);
    expect(outside.headers.get('content-range')).toBe(`bytes */${bytes.length}`);

    const unchanged = await fetch(`${gateway.url}/v1/videos/${jobId}/content`, { headers: { 'if-none-match': etag ?? '' } });
    expect(unchanged.status).toBe(304);
  });

  it('has a thumbnail image of the video size', async () => {
    const response = await client.videos.downloadContent(jobId, { variant: 'thumbnail' });
    expect(response.headers.get('content-type')).toMatch(/^image\/(webp|jpeg)$/);
    const metadata = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
    expect(metadata.width! / metadata.height!).toBeCloseTo(16 / 9, 1);
  });

  it('is charged once, in the video_seconds bucket, at the price per second', async () => {
    const entries = await ledgerEntriesOf(jobId);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ endpoint: 'videos', model: 'sim-video', videoSeconds: 4, costNanoUsd: 400_000_000n, status: 200, usageEstimated: false });
  });

  it('is remixed into a new job that completes and is charged on its own', async () => {
    const remix = await client.videos.remix(jobId, { prompt: `the same lighthouse in fog ${quick}` });
    expect(remix.remixed_from_video_id).toBe(jobId);
    expect(remix.id).not.toBe(jobId);
    const { video } = await pollUntilDone(client, remix.id);
    expect(video.status).toBe('completed');
    expect(await ledgerEntriesOf(remix.id)).toHaveLength(1);
    expect((await ledgerEntriesOf(remix.id))[0]?.costNanoUsd).toBe(400_000_000n);
  });

  it('after deletion is gone, and its content with it', async () => {
    const deleted = await client.videos.delete(jobId);
    expect(deleted).toEqual({ id: jobId, object: 'video.deleted', deleted: true });
    await expect(client.videos.retrieve(jobId)).rejects.toBeInstanceOf(NotFoundError);
    expect((await fetch(`${gateway.url}/v1/videos/${jobId}/content`)).status).toBe(404);
    expect(await ledgerEntriesOf(jobId)).toHaveLength(1);
  });
});

describe('other variants on the simulator', () => {
  it('makes a portrait video of eight seconds', async () => {
    const created = await client.videos.create({ model: 'sim-video', prompt: `a waterfall ${quick}`, seconds: '8', size: '720x1280' });
    const { video } = await pollUntilDone(client, created.id);
    expect(video.status).toBe('completed');
    const probed = await ffprobe(Buffer.from(await (await client.videos.downloadContent(created.id)).arrayBuffer()));
    expect(probed).toMatchObject({ width: 720, height: 1280 });
    expect(Math.abs(probed.durationSeconds - 8)).toBeLessThan(0.1);
    expect((await ledgerEntriesOf(created.id))[0]).toMatchObject({ videoSeconds: 8, costNanoUsd: 800_000_000n });
  });

  it('makes an image-to-video job from an uploaded first frame, at that variant price', async () => {
    const frame = await sharp({ create: { width: 64, height: 36, channels: 3, background: '#3366aa' } }).png().toBuffer();
    const created = await client.videos.create({
      model: 'sim-video',
      prompt: `the frame comes alive ${quick}`,
      seconds: '4',
      size: '1280x720',
      input_reference: await toFile(frame, 'frame.png', { type: 'image/png' }),
    });
    const { video } = await pollUntilDone(client, created.id);
    expect(video.status).toBe('completed');
    expect((await ledgerEntriesOf(created.id))[0]).toMatchObject({ videoSeconds: 4, costNanoUsd: 480_000_000n });
  });

  it('accepts a JSON submit with resolution and aspect ratio and a numeric seconds', async () => {
    const response = await fetch(`${gateway.url}/v1/videos`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'sim-video', prompt: `dunes ${quick}`, seconds: 4, resolution: '720p', aspect_ratio: '9:16' }),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { id: string; size: string; seconds: string };
    expect(body).toMatchObject({ size: '720x1280', seconds: '4' });
    expect((await pollUntilDone(client, body.id)).video.status).toBe('completed');
  });
});

describe('jobs that do not complete', () => {
  it('a failing job ends failed with its reason, has no content and costs nothing', async () => {
    const created = await client.videos.create({ model: 'sim-video', prompt: `FAIL this one ${quick}`, seconds: '4', size: '1280x720' });
    const { video } = await pollUntilDone(client, created.id);
    expect(video.status).toBe('failed');
    expect(video.error?.message).toBeTruthy();
    expect((await fetch(`${gateway.url}/v1/videos/${created.id}/content`)).status).toBe(404);
    const entries = await ledgerEntriesOf(created.id);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ costNanoUsd: 0n, videoSeconds: 0 });
  });

  it('content asked for before completion is 409 video_not_ready', async () => {
    const created = await client.videos.create({ model: 'sim-video', prompt: 'slow [video-ms:5000]', seconds: '4', size: '1280x720' });
    const early = await fetch(`${gateway.url}/v1/videos/${created.id}/content`);
    expect(early.status).toBe(409);
    expect(((await early.json()) as { error: { code: string } }).error.code).toBe('video_not_ready');
    await client.videos.delete(created.id);
  });

  it('a job deleted while it renders is cancelled, gone, and charged nothing', async () => {
    const created = await client.videos.create({ model: 'sim-video', prompt: 'long [video-ms:8000]', seconds: '12', size: '1280x720' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await client.videos.delete(created.id);
    await expect(client.videos.retrieve(created.id)).rejects.toBeInstanceOf(NotFoundError);
    const entries = await ledgerEntriesOf(created.id);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ costNanoUsd: 0n, videoSeconds: 0 });
  });
});

describe('listing and idempotency', () => {
  it('pages through every job with the SDK auto-pagination, newest first', async () => {
    const ids: string[] = [];
    for (let index = 0; index < 3; index++) {
      ids.push((await client.videos.create({ model: 'sim-video', prompt: `page ${index} [video-ms:500]`, seconds: '4', size: '1280x720' })).id);
    }
    const listed: string[] = [];
    for await (const video of client.videos.list({ limit: 2 })) listed.push(video.id);
    const positions = ids.map((id) => listed.indexOf(id));
    expect(positions.every((position) => position >= 0)).toBe(true);
    expect(positions).toEqual([...positions].sort((left, right) => right - left));
    expect(new Set(listed).size).toBe(listed.length);

    const page = await client.videos.list({ limit: 2, order: 'asc' });
    expect(page.data).toHaveLength(2);
    expect((page as unknown as { has_more: boolean }).has_more).toBe(true);
  });

  it('a retried submit with the same Idempotency-Key gets the same job', async () => {
    const body = { model: 'sim-video', prompt: `once ${quick}`, seconds: '4' as const, size: '1280x720' as const };
    const first = await client.videos.create(body, { headers: { 'idempotency-key': 'retry-me-1' } });
    const again = await client.videos.create(body, { headers: { 'idempotency-key': 'retry-me-1' } });
    const other = await client.videos.create(body, { headers: { 'idempotency-key': 'retry-me-2' } });
    expect(again.id).toBe(first.id);
    expect(other.id).not.toBe(first.id);
  });
});
