import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import OpenAI, { BadRequestError, NotFoundError, toFile } from 'openai';
import type { Video, VideoCreateParams } from 'openai/resources/videos';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { LedgerEntry } from '../../src/metering/ledger-entry.js';
import { startFakeRunway, type FakeRunway, type FakeRunwayTask } from '../support/fake-runway/index.js';
import { ffprobe } from '../support/ffprobe.js';
import { readFixtureBytes } from '../support/fixtures.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { pollUntilDone, quickVideoSettings, temporaryContentDirectory } from '../support/video-jobs.js';

/**
 * Runway behind the Videos API: the `openai` SDK submits, polls and downloads through the
 * gateway, which speaks Runway's task API to a fake Runway (proven against `@runwayml/sdk` in
 * test/support/fake-runway/fake-runway.test.ts). Models are Runway's own ids with their built-in
 * variants and prices; every MP4 is read back with ffprobe, every job's ledger entry checked.
 */

const frame = readFixtureBytes('runway/first-frame-64x36.png');
const minute = 60_000;

let runway: FakeRunway;
let gateway: TestGateway;
let client: OpenAI;

function runwayProvider(fake: FakeRunway): Record<string, unknown> {
  return { runway: { type: 'runway', api_key: fake.apiKey, base_url: fake.url } };
}

const runwayModels = ['gen4.5', 'gen4_turbo', 'veo3.1'].map((id) => ({ id, output_modality: 'video', routes: [{ provider: 'runway', model: id }] }));

beforeAll(async () => {
  // Output links that expire a minute after the poll that hands them out.
  runway = await startFakeRunway({ outputTtlMs: minute });
  gateway = await startTestGateway({ content: { dir: temporaryContentDirectory() }, videos: quickVideoSettings, providers: runwayProvider(runway), models: runwayModels });
  client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'unused', maxRetries: 0 });
});
afterAll(async () => {
  await gateway.close();
  await runway.close();
});
beforeEach(() => {
  runway.calls.length = 0;
  runway.downloads.length = 0;
});

/**
 * `videos.create` with Runway's sizes and lengths: the SDK sends any string it is given, but types
 * only Sora's (`1280x720`, `'4'`, …), so the fields are widened here and nowhere else.
 */
function createVideo(sdk: OpenAI, params: { model: string; prompt: string; seconds?: string; size?: string; input_reference?: VideoCreateParams['input_reference'] }): Promise<Video> {
  return sdk.videos.create(params as VideoCreateParams);
}

async function ledgerEntriesOf(target: TestGateway, jobId: string): Promise<LedgerEntry[]> {
  await target.services.ledger.flush();
  return (await target.services.storage.ledger.list({ limit: 10_000 })).filter((entry) => entry.requestId === jobId);
}

function submits(): number {
  return runway.calls.filter((call) => call.method === 'POST').length;
}

function newestTask(fake: FakeRunway): FakeRunwayTask {
  const task = [...fake.tasks.values()].at(-1);
  if (task === undefined) throw new Error('no task submitted');
  return task;
}

async function until(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('a text-to-video job on Runway', () => {
  it("is submitted as Runway's task, polled to its output, stored, served and charged its seconds at the variant's price", async () => {
    const prompt = 'A timelapse on a sunny day with clouds flying by';
    const created = await createVideo(client, { model: 'gen4.5', prompt, seconds: '5', size: '1280x720' });
    const { video, progress } = await pollUntilDone(client, created.id);
    expect(video.status).toBe('completed');
    expect(progress).toEqual([...progress].sort((left, right) => left - right));

    const [submit, ...rest] = runway.calls;
    expect(submit).toMatchObject({ method: 'POST', path: '/v1/text_to_video', body: { model: 'gen4.5', promptText: prompt, ratio: '1280:720', duration: 5 } });
    // PENDING, THROTTLED, RUNNING twice, then SUCCEEDED: each a poll of the task.
    expect(rest.filter((call) => call.method === 'GET' && call.path === `/v1/tasks/${newestTask(runway).id}`).length).toBeGreaterThanOrEqual(5);
    expect(runway.calls.every((call) => call.status < 400 && call.headers['x-runway-version'] === '2024-11-06' && call.headers.authorization === `Bearer ${runway.apiKey}`)).toBe(true);
    // The output host is not Runway's API: the key does not go there.
    expect(runway.downloads).toMatchObject([{ status: 200, authorization: undefined }]);

    const probed = await ffprobe(Buffer.from(await (await client.videos.downloadContent(created.id)).arrayBuffer()));
    expect(probed).toMatchObject({ codec: 'h264', width: 1280, height: 720 });
    expect(Math.abs(probed.durationSeconds - 5)).toBeLessThan(0.1);
    // Gen-4.5 at $0.12 a second, five seconds delivered: $0.60, never the $0 a credit-billed vendor may look like.
    expect(await ledgerEntriesOf(gateway, created.id)).toMatchObject([{ provider: 'runway', model: 'gen4.5', videoSeconds: 5, costNanoUsd: 600_000_000n }]);
  });

  it('reports progress from the fraction Runway gives while it runs', async () => {
    const slow = await startFakeRunway({ steps: ['PENDING', 0.42, 0.42, 0.42, 0.42, 0.42, 0.42, 0.42, 0.42, 0.42] });
    const other = await startTestGateway({ content: { dir: temporaryContentDirectory() }, videos: quickVideoSettings, providers: runwayProvider(slow), models: runwayModels });
    try {
      const sdk = new OpenAI({ baseURL: `${other.url}/v1`, apiKey: 'unused', maxRetries: 0 });
      const created = await createVideo(sdk, { model: 'gen4.5', prompt: 'waves', seconds: '2', size: '720x1280' });
      await until(() => newestTask(slow).polls >= 3, 'a running poll');
      const running = await sdk.videos.retrieve(created.id);
      expect(running).toMatchObject({ status: 'in_progress', progress: 42 });
      const { video } = await pollUntilDone(sdk, created.id);
      expect(video).toMatchObject({ status: 'completed', progress: 100 });
    } finally {
      await other.close();
      await slow.close();
    }
  });
});

describe('an image-to-video job on Runway', () => {
  it("sends the client's input_reference file as a data URI to image_to_video", async () => {
    const created = await createVideo(client, { model: 'gen4_turbo', prompt: 'the bunny is eating a carrot', seconds: '5', size: '960x960', input_reference: await toFile(frame, 'frame.png', { type: 'image/png' }) });
    const { video } = await pollUntilDone(client, created.id);
    expect(video.status).toBe('completed');
    expect(runway.calls[0]).toMatchObject({ path: '/v1/image_to_video', body: { model: 'gen4_turbo', promptImage: `data:image/png;base64,${frame.toString('base64')}`, ratio: '960:960', duration: 5 } });
    const probed = await ffprobe(Buffer.from(await (await client.videos.downloadContent(created.id)).arrayBuffer()));
    expect(probed).toMatchObject({ codec: 'h264', width: 960, height: 960 });
    expect(Math.abs(probed.durationSeconds - 5)).toBeLessThan(0.1);
    expect(await ledgerEntriesOf(gateway, created.id)).toMatchObject([{ videoSeconds: 5, costNanoUsd: 250_000_000n }]);
  });

  it("refuses a first frame too large for Runway's data URIs before anything is sent", async () => {
    // A PNG signature is all the gateway reads of the bytes; the size is what is refused.
    const large = Buffer.concat([frame, Buffer.alloc(4 * 1024 * 1024)]);
    const refused = await createVideo(client, { model: 'gen4.5', prompt: 'too big', seconds: '5', size: '1280x720', input_reference: await toFile(large, 'big.png', { type: 'image/png' }) }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(BadRequestError);
    expect((refused as BadRequestError).param).toBe('input_reference');
    expect((refused as BadRequestError).message).toContain('3932142 bytes');
    expect(submits()).toBe(0);
  });
});

describe('what a Runway model does not take', () => {
  it('is refused with the variants it sells, before anything is sent or charged', async () => {
    const before = (await gateway.services.storage.ledger.list({ limit: 10_000 })).length;
    const cases = [
      { request: { model: 'gen4.5', prompt: 'square', seconds: '5', size: '960x960' }, param: 'size' },
      { request: { model: 'gen4.5', prompt: 'too long', seconds: '12', size: '1280x720' }, param: 'seconds' },
      { request: { model: 'veo3.1', prompt: 'odd length', seconds: '5', size: '1280x720' }, param: 'seconds' },
      { request: { model: 'gen4_turbo', prompt: 'no image', seconds: '5', size: '1280x720' }, param: 'mode' },
    ] as const;
    for (const { request, param } of cases) {
      const refused = await createVideo(client, request).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(BadRequestError);
      expect((refused as BadRequestError).param).toBe(param);
      expect((refused as BadRequestError).message).toContain('Sold variants');
    }
    expect(submits()).toBe(0);
    await gateway.services.ledger.flush();
    const after = await gateway.services.storage.ledger.list({ limit: 10_000 });
    expect(after.slice(0, after.length - before).every((entry) => entry.costNanoUsd === 0n)).toBe(true);
  });

  it('lists only the variants Runway takes at /v1/videos/models', async () => {
    const models = (await (await fetch(`${gateway.url}/v1/videos/models`)).json()) as { data: { id: string; modes: string[]; variants: { mode: string; size: string; seconds: string[]; usd_per_second: string }[] }[] };
    const byId = new Map(models.data.map((model) => [model.id, model]));
    const gen45 = byId.get('gen4.5');
    expect(gen45?.variants.filter((variant) => variant.mode === 'text-to-video').map((variant) => variant.size)).toEqual(['1280x720', '720x1280']);
    expect(gen45?.variants.filter((variant) => variant.mode === 'image-to-video').map((variant) => variant.size)).toEqual(['1280x720', '720x1280', '1104x832', '832x1104', '960x960', '1584x672']);
    expect(gen45?.variants.every((variant) => variant.usd_per_second === '0.12' && variant.seconds.join() === '2,3,4,5,6,7,8,9,10')).toBe(true);
    expect(byId.get('gen4_turbo')?.modes).toEqual(['image-to-video']);
    const veo = byId.get('veo3.1');
    expect(veo?.variants.filter((variant) => variant.size === '1920x1080').map((variant) => variant.seconds)).toEqual([['8'], ['8']]);
  });
});

describe('a Runway model configured with variants Runway does not make', () => {
  it('is refused at start, naming the variant and what the model makes', async () => {
    const square = { mode: 'text-to-video', resolution: '720p', aspect_ratio: '1:1', size: '960x960', seconds: [5], usd_per_second: '0.12' };
    const config = (variants: readonly Record<string, unknown>[]): Record<string, unknown> => ({
      providers: runwayProvider(runway),
      models: [{ id: 'square-clips', output_modality: 'video', routes: [{ provider: 'runway', model: 'gen4.5' }], video: { variants } }],
    });
    await expect(startTestGateway(config([square]))).rejects.toThrow(/models\[0\]\.routes\[0\]\.model: Runway's gen4\.5 makes text-to-video at 1280x720, 720x1280, not 960x960 \(variant text-to-video 720p 1:1\)/);
    const long = { mode: 'image-to-video', resolution: '720p', aspect_ratio: '16:9', size: '1280x720', seconds: [5, 12], usd_per_second: '0.12' };
    await expect(startTestGateway(config([{ ...square, mode: 'image-to-video' }, long]))).rejects.toThrow(/models\[0\]\.routes\[0\]\.model: .*not 12 \(variant image-to-video 720p 16:9\)/);
    expect(runway.calls).toHaveLength(0);
  });
});

describe('a Runway job that does not deliver', () => {
  it("fails with Runway's moderation reason and costs nothing", async () => {
    runway.plan({ kind: 'fail', failure: 'Your prompt did not pass our content moderation.', failureCode: 'SAFETY.INPUT.TEXT' });
    const created = await createVideo(client, { model: 'gen4.5', prompt: 'something refused', seconds: '4', size: '1280x720' });
    const { video } = await pollUntilDone(client, created.id);
    expect(video.status).toBe('failed');
    expect(video.error).toMatchObject({ code: 'content_filtered', message: expect.stringContaining('SAFETY.INPUT.TEXT') });
    expect(video.error?.message).toContain('did not pass our content moderation');
    expect(runway.downloads).toHaveLength(0);
    expect(await ledgerEntriesOf(gateway, created.id)).toMatchObject([{ costNanoUsd: 0n, videoSeconds: 0 }]);
  });

  it("is cancelled at Runway when the client deletes it mid-render, and costs nothing", async () => {
    runway.plan({ kind: 'keep-running' });
    const created = await createVideo(client, { model: 'veo3.1', prompt: 'a harbour at dusk', seconds: '8', size: '1920x1080' });
    const task = newestTask(runway);
    expect(task.body).toMatchObject({ model: 'veo3.1', ratio: '1920:1080', duration: 8, audio: true });
    await until(() => task.polls >= 2, 'a poll of the task');
    expect(await client.videos.delete(created.id)).toMatchObject({ id: created.id, deleted: true });
    expect(runway.calls.filter((call) => call.method === 'DELETE').map((call) => call.path)).toEqual([`/v1/tasks/${task.id}`]);
    expect(task.cancelled).toBe(true);
    await expect(client.videos.retrieve(created.id)).rejects.toBeInstanceOf(NotFoundError);
    expect(await ledgerEntriesOf(gateway, created.id)).toMatchObject([{ costNanoUsd: 0n, videoSeconds: 0 }]);
  });

  it('fails, free, when its task is cancelled at Runway', async () => {
    runway.plan({ kind: 'keep-running' });
    const created = await createVideo(client, { model: 'gen4.5', prompt: 'cancelled elsewhere', seconds: '3', size: '1280x720' });
    const task = newestTask(runway);
    await until(() => task.polls >= 1, 'a poll of the task');
    runway.cancelAtRunway(task.id);
    const { video } = await pollUntilDone(client, created.id);
    expect(video).toMatchObject({ status: 'failed', error: { code: 'cancelled' } });
    expect(await ledgerEntriesOf(gateway, created.id)).toMatchObject([{ costNanoUsd: 0n, videoSeconds: 0 }]);
  });
});

describe("Runway's expiring output links", () => {
  it('do not matter once the job is done: the video still downloads from the gateway after the link has expired', async () => {
    const created = await createVideo(client, { model: 'gen4.5', prompt: 'a lighthouse', seconds: '2', size: '1280x720' });
    const { video } = await pollUntilDone(client, created.id);
    expect(video.status).toBe('completed');
    const first = Buffer.from(await (await client.videos.downloadContent(created.id)).arrayBuffer());

    // A day on at Runway: the link the gateway was given now answers 403.
    runway.advance(24 * 60 * minute);
    expect((await fetch(runway.handedOut.at(-1) ?? '')).status).toBe(403);

    const again = Buffer.from(await (await client.videos.downloadContent(created.id)).arrayBuffer());
    expect(again.equals(first)).toBe(true);
    expect((await ffprobe(again)).durationSeconds).toBeCloseTo(2, 1);
    // The gateway keeps it for its own content lifetime (a day by default), not Runway's.
    const kept = (video.expires_at ?? 0) - (video.completed_at ?? 0);
    expect(kept).toBeGreaterThanOrEqual(86_399);
    expect(kept).toBeLessThanOrEqual(86_400);
    expect(runway.downloads.filter((download) => download.status === 200)).toHaveLength(1);
  });

  it('already expired when the worker fetches it are asked for again, fresh, from the task', async () => {
    runway.plan({ kind: 'succeed', staleOutputs: 1 });
    const created = await createVideo(client, { model: 'gen4.5', prompt: 'a late download', seconds: '2', size: '720x1280' });
    const { video } = await pollUntilDone(client, created.id);
    expect(video.status).toBe('completed');
    expect(runway.downloads.map((download) => download.status)).toEqual([403, 200]);
    expect(await ledgerEntriesOf(gateway, created.id)).toMatchObject([{ videoSeconds: 2, costNanoUsd: 240_000_000n }]);
  });
});

describe('a gateway restarted mid-job on Runway', () => {
  it('finishes the job after the restart, submitted once and charged once', async () => {
    const slow = await startFakeRunway({ steps: ['PENDING', 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9] });
    const directory = mkdtempSync(path.join(tmpdir(), 'switchyard-runway-restart-'));
    const config = {
      database: { url: `sqlite:${path.join(directory, 'switchyard.db')}` },
      content: { dir: path.join(directory, 'content') },
      videos: quickVideoSettings,
      providers: runwayProvider(slow),
      models: runwayModels,
    };
    const first = await startTestGateway(config);
    let firstOpen = true;
    let second: TestGateway | undefined;
    try {
      const firstClient = new OpenAI({ baseURL: `${first.url}/v1`, apiKey: 'unused', maxRetries: 0 });
      const created = await createVideo(firstClient, { model: 'gen4.5', prompt: 'a train crossing a bridge', seconds: '3', size: '1280x720' });
      const task = newestTask(slow);
      await until(() => task.polls >= 2, 'a poll before the restart');
      await first.close();
      firstOpen = false;

      second = await startTestGateway(config);
      const secondClient = new OpenAI({ baseURL: `${second.url}/v1`, apiKey: 'unused', maxRetries: 0 });
      const { video } = await pollUntilDone(secondClient, created.id, 30_000);
      expect(video.status).toBe('completed');
      const probed = await ffprobe(Buffer.from(await (await secondClient.videos.downloadContent(created.id)).arrayBuffer()));
      expect(probed).toMatchObject({ width: 1280, height: 720 });
      expect(slow.calls.filter((call) => call.method === 'POST')).toHaveLength(1);
      expect(slow.downloads.filter((download) => download.status === 200)).toHaveLength(1);
      expect(await ledgerEntriesOf(second, created.id)).toMatchObject([{ videoSeconds: 3, costNanoUsd: 360_000_000n }]);
    } finally {
      if (firstOpen) await first.close();
      await second?.close();
      await slow.close();
    }
  });
});

describe('Runway on the built-in simulator', () => {
  it('makes a real MP4 at a Gen-4 size, and fails a filtered task with its safety code, free', async () => {
    const simulated = await startTestGateway({
      content: { dir: temporaryContentDirectory() },
      videos: quickVideoSettings,
      providers: { runway: { type: 'runway', base_url: 'builtin:sim' } },
      models: runwayModels,
    });
    try {
      const sdk = new OpenAI({ baseURL: `${simulated.url}/v1`, apiKey: 'unused', maxRetries: 0 });
      const created = await createVideo(sdk, { model: 'gen4_turbo', prompt: 'a paper boat [video-ms:600]', seconds: '5', size: '1584x672', input_reference: await toFile(frame, 'frame.png', { type: 'image/png' }) });
      const { video } = await pollUntilDone(sdk, created.id);
      expect(video.status).toBe('completed');
      const probed = await ffprobe(Buffer.from(await (await sdk.videos.downloadContent(created.id)).arrayBuffer()));
      expect(probed).toMatchObject({ codec: 'h264', width: 1584, height: 672 });
      expect(Math.abs(probed.durationSeconds - 5)).toBeLessThan(0.1);
      expect(await ledgerEntriesOf(simulated, created.id)).toMatchObject([{ videoSeconds: 5, costNanoUsd: 250_000_000n }]);

      const filtered = await createVideo(sdk, { model: 'gen4.5', prompt: 'FILTER this one [video-ms:300]', seconds: '2', size: '1280x720' });
      const failed = await pollUntilDone(sdk, filtered.id);
      expect(failed.video).toMatchObject({ status: 'failed', error: { code: 'content_filtered', message: expect.stringContaining('SAFETY.OUTPUT') } });
      expect(await ledgerEntriesOf(simulated, filtered.id)).toMatchObject([{ costNanoUsd: 0n }]);
    } finally {
      await simulated.close();
    }
  });
});
