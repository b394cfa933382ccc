import OpenAI, { toFile } from 'openai';
import type { Video, VideoCreateParams } from 'openai/resources/videos';
import sharp from 'sharp';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LedgerEntry } from '../../src/metering/ledger-entry.js';
import { startFakeMiniMax, type FakeMiniMax } from '../support/fake-minimax/fake-minimax.js';
import { ffprobe } from '../support/ffprobe.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { pollUntilDone, quickVideoSettings, temporaryContentDirectory } from '../support/video-jobs.js';

/**
 * MiniMax Hailuo through the gateway, driven with the `openai` SDK against a fake MiniMax that
 * speaks its job protocol (test/support/fake-minimax): a task submitted, queried until `Success`,
 * its file looked up for a signed link on another origin and the MP4 copied into the content
 * store, then served (checked by ffprobe) and charged the seconds delivered at the variant's
 * price. MiniMax's refusals come with HTTP 200 and a status code; each ends free.
 */

let minimax: FakeMiniMax;
let gateway: TestGateway;
let client: OpenAI;

/** What the model sells: the built-in Hailuo-02 record, priced here (MiniMax's record carries no prices). */
const hailuoPrices = {
  effective_from: '2026-01-01',
  per_second: {
    'text-to-video/768p/16:9': '0.045',
    'text-to-video/1080p/16:9': '0.08',
    'image-to-video/512p/16:9': '0.02',
    'image-to-video/768p/16:9': '0.045',
  },
};

beforeAll(async () => {
  minimax = await startFakeMiniMax({ queriesUntilDone: 2 });
  gateway = await startTestGateway({
    content: { dir: temporaryContentDirectory() },
    videos: quickVideoSettings,
    providers: { minimax: { type: 'minimax', api_key: 'minimax-key', base_url: minimax.url } },
    models: [
      { id: 'hailuo-02', output_modality: 'video', routes: [{ provider: 'minimax', model: 'MiniMax-Hailuo-02' }], price: hailuoPrices },
      { id: 'hailuo-fast', output_modality: 'video', routes: [{ provider: 'minimax', model: 'MiniMax-Hailuo-2.3-Fast' }], price: { effective_from: '2026-01-01', per_second: { 'image-to-video/768p/16:9': '0.03' } } },
    ],
  });
  client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'unused', maxRetries: 0 });
});
afterAll(async () => {
  await gateway.close();
  await minimax.close();
});
beforeEach(() => {
  minimax.hold = false;
  minimax.balanceExhausted = false;
  minimax.expireNextLinks = 0;
});

async function ledgerEntriesOf(jobId: string): Promise<LedgerEntry[]> {
  await gateway.services.ledger.flush();
  return (await gateway.services.storage.ledger.list({ limit: 10_000 })).filter((entry) => entry.requestId === jobId);
}

/** MiniMax's lengths (6, 10) and frames are outside the SDK's unions (Sora's); the SDK sends them as given. */
function create(fields: Record<string, unknown>): Promise<Video> {
  return client.videos.create({ model: 'hailuo-02', ...fields } as unknown as VideoCreateParams);
}

async function totalCharged(): Promise<bigint> {
  await gateway.services.ledger.flush();
  return (await gateway.services.storage.ledger.list({ limit: 10_000 })).reduce((sum, entry) => sum + entry.costNanoUsd, 0n);
}

const submits = (): Record<string, unknown>[] => minimax.api.requests.filter((request) => request.path === '/v1/video_generation').map((request) => JSON.parse(request.body) as Record<string, unknown>);

describe('MiniMax Hailuo videos', () => {
  it('lists the Hailuo models with only the priced variants MiniMax makes', async () => {
    const listed = (await (await fetch(`${gateway.url}/v1/videos/models`)).json()) as { data: { id: string; variants: unknown[] }[] };
    expect(listed.data.find((model) => model.id === 'hailuo-02')?.variants).toEqual([
      { mode: 'text-to-video', resolution: '768p', aspect_ratio: '16:9', size: '1366x768', seconds: ['6', '10'], usd_per_second: '0.045' },
      { mode: 'text-to-video', resolution: '1080p', aspect_ratio: '16:9', size: '1920x1080', seconds: ['6'], usd_per_second: '0.08' },
      { mode: 'image-to-video', resolution: '512p', aspect_ratio: '16:9', size: '912x512', seconds: ['6', '10'], usd_per_second: '0.02' },
      { mode: 'image-to-video', resolution: '768p', aspect_ratio: '16:9', size: '1366x768', seconds: ['6', '10'], usd_per_second: '0.045' },
    ]);
    expect(listed.data.find((model) => model.id === 'hailuo-fast')).toMatchObject({ modes: ['image-to-video'], resolutions: ['768p'] });
  });

  it('submits, queries until done, copies the file MiniMax names and charges the seconds delivered', async () => {
    const created = await create({ prompt: 'a lighthouse at dusk [Push in]', seconds: '6', size: '1366x768' });
    const { video, progress } = await pollUntilDone(client, created.id);
    expect(video.status).toBe('completed');
    expect(progress).toEqual([...progress].sort((left, right) => left - right));

    expect(submits().at(-1)).toEqual({ model: 'MiniMax-Hailuo-02', prompt: 'a lighthouse at dusk [Push in]', duration: 6, resolution: '768P' });
    expect(minimax.api.requests.every((request) => request.headers.authorization === 'Bearer minimax-key')).toBe(true);
    const task = [...minimax.tasks.values()].at(-1);
    // Queried while Preparing and Queueing, then done.
    expect(task?.queries).toBeGreaterThan(2);
    expect(minimax.api.requests.some((request) => request.path === `/v1/files/retrieve?file_id=${task?.fileId ?? ''}`)).toBe(true);
    // The signed link goes to storage on another origin, without MiniMax's key.
    expect(minimax.cdn.requests.length).toBeGreaterThan(0);
    expect(minimax.cdn.requests.every((request) => request.headers.authorization === undefined)).toBe(true);

    const probed = await ffprobe(Buffer.from(await (await client.videos.downloadContent(created.id)).arrayBuffer()));
    expect(probed).toMatchObject({ codec: 'h264', width: 1366, height: 768 });
    expect(Math.abs(probed.durationSeconds - 6)).toBeLessThan(0.1);
    // 6 s × $0.045 = $0.27.
    expect(await ledgerEntriesOf(created.id)).toMatchObject([{ provider: 'minimax', upstreamModel: 'MiniMax-Hailuo-02', videoSeconds: 6, costNanoUsd: 270_000_000n }]);
  });

  it('asks MiniMax for a fresh link when the one it named has expired before the download', async () => {
    minimax.expireNextLinks = 1;
    const created = await create({ prompt: 'a red kite', seconds: '6', size: '1920x1080' });
    expect((await pollUntilDone(client, created.id)).video.status).toBe('completed');
    const task = [...minimax.tasks.values()].at(-1);
    const fetched = minimax.cdn.requests.filter((request) => request.path.includes(`/${task?.fileId ?? ''}/`));
    expect(fetched.map((request) => request.answer.status)).toEqual([403, 200]);
    expect(minimax.api.requests.filter((request) => request.path === `/v1/files/retrieve?file_id=${task?.fileId ?? ''}`)).toHaveLength(2);
    const probed = await ffprobe(Buffer.from(await (await client.videos.downloadContent(created.id)).arrayBuffer()));
    expect(probed).toMatchObject({ width: 1920, height: 1080 });
    expect(await ledgerEntriesOf(created.id)).toMatchObject([{ videoSeconds: 6, costNanoUsd: 480_000_000n }]);
  });

  it('sends the client’s image as a data URI first frame', async () => {
    const png = await sharp({ create: { width: 640, height: 360, channels: 3, background: { r: 200, g: 120, b: 40 } } }).png().toBuffer();
    const created = await create({ model: 'hailuo-fast', prompt: 'the sun rises', seconds: '10', size: '1366x768', input_reference: await toFile(png, 'frame.png', { type: 'image/png' }) });
    const { video } = await pollUntilDone(client, created.id);
    expect(video.status).toBe('completed');
    const sent = submits().at(-1);
    expect(sent).toMatchObject({ model: 'MiniMax-Hailuo-2.3-Fast', duration: 10, resolution: '768P' });
    expect(sent?.first_frame_image).toBe(`data:image/png;base64,${png.toString('base64')}`);
    const probed = await ffprobe(Buffer.from(await (await client.videos.downloadContent(created.id)).arrayBuffer()));
    expect(Math.abs(probed.durationSeconds - 10)).toBeLessThan(0.1);
    expect(await ledgerEntriesOf(created.id)).toMatchObject([{ videoSeconds: 10, costNanoUsd: 300_000_000n }]);
  });

  it('ends a task MiniMax fails as failed, free', async () => {
    const created = await create({ prompt: 'please FAIL', seconds: '6', size: '1366x768' });
    const { video } = await pollUntilDone(client, created.id);
    expect(video).toMatchObject({ status: 'failed', error: { code: 'upstream_failed' } });
    expect(await ledgerEntriesOf(created.id)).toMatchObject([{ costNanoUsd: 0n, videoSeconds: 0 }]);
  });

  it('ends a video MiniMax withholds as sensitive (1027) as content_filtered, free', async () => {
    const created = await create({ prompt: 'SENSITIVE-OUTPUT', seconds: '6', size: '1366x768' });
    const { video } = await pollUntilDone(client, created.id);
    expect(video).toMatchObject({ status: 'failed', error: { code: 'content_filtered', message: expect.stringContaining('sensitive') as string } });
    expect(await ledgerEntriesOf(created.id)).toMatchObject([{ costNanoUsd: 0n }]);
  });

  it('answers a prompt MiniMax refuses as sensitive (1026, with HTTP 200) with a 400, free', async () => {
    const refused = await create({ prompt: 'SENSITIVE-INPUT', seconds: '6', size: '1366x768' }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenAI.APIError);
    expect(refused).toMatchObject({ status: 400, message: expect.stringContaining('sensitive') as string });
    const [job] = (await client.videos.list({ limit: 1 })).data;
    expect(job).toMatchObject({ status: 'failed' });
    expect(await ledgerEntriesOf(job?.id ?? '')).toMatchObject([{ costNanoUsd: 0n }]);
  });

  it('surfaces an exhausted MiniMax balance (1008, with HTTP 200) as a clear failure, free', async () => {
    minimax.balanceExhausted = true;
    const refused = await create({ prompt: 'a quiet harbour', seconds: '6', size: '1366x768' }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenAI.APIError);
    expect(refused).toMatchObject({ status: 502, message: expect.stringContaining('insufficient balance') as string });
    const [job] = (await client.videos.list({ limit: 1 })).data;
    expect(job).toMatchObject({ status: 'failed', error: { message: expect.stringContaining('insufficient balance') as string } });
    expect(await ledgerEntriesOf(job?.id ?? '')).toMatchObject([{ costNanoUsd: 0n }]);
  });

  it('stops polling a job deleted while it renders (MiniMax has no cancel) and charges nothing', async () => {
    minimax.hold = true;
    const created = await create({ prompt: 'a slow sunset', seconds: '6', size: '1366x768' });
    const task = [...minimax.tasks.values()].at(-1);
    for (let waited = 0; (task?.queries ?? 0) < 1 && waited < 5_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(task?.queries).toBeGreaterThan(0);
    await expect(client.videos.delete(created.id)).resolves.toMatchObject({ id: created.id, deleted: true });
    // A query already on its way when the job was deleted may still land; none is sent after.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const queriesAtDelete = task?.queries ?? 0;
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(task?.queries).toBe(queriesAtDelete);
    await expect(client.videos.retrieve(created.id)).rejects.toMatchObject({ status: 404 });
    expect(await ledgerEntriesOf(created.id)).toMatchObject([{ costNanoUsd: 0n, videoSeconds: 0 }]);
  });

  it('refuses bad input before anything reaches MiniMax, and charges nothing', async () => {
    const before = minimax.api.requests.length;
    const chargedBefore = await totalCharged();
    // 1080p is made 6 seconds long only; 9:16 and 720p are not sold; a prompt over MiniMax's 2000 characters.
    for (const asked of [
      { seconds: '10', size: '1920x1080', prompt: 'x' },
      { seconds: '6', size: '720x1280', prompt: 'x' },
      { seconds: '8', size: '1366x768', prompt: 'x' },
      { seconds: '6', size: '1366x768', prompt: 'x'.repeat(2001) },
    ]) {
      const refused = await create(asked).catch((error: unknown) => error);
      expect(refused).toMatchObject({ status: 400 });
    }
    expect(minimax.api.requests.length).toBe(before);
    expect(await totalCharged()).toBe(chargedBefore);
  });

  it('refuses at start a config selling a variant MiniMax cannot make, naming the field', async () => {
    const start = startTestGateway({
      providers: { minimax: { type: 'minimax', api_key: 'minimax-key', base_url: minimax.url } },
      models: [
        {
          id: 'hailuo-long',
          output_modality: 'video',
          routes: [{ provider: 'minimax', model: 'MiniMax-Hailuo-02' }],
          video: { variants: [{ mode: 'text-to-video', resolution: '1080p', aspect_ratio: '16:9', seconds: [6, 10], usd_per_second: '0.08' }] },
        },
      ],
    });
    await expect(start).rejects.toThrow(/models\[0\]\.routes\[0\]\.model: .*1080p.*6 seconds only/);
  });
});

describe('a MiniMax job over time', () => {
  it('still downloads from the gateway a day after MiniMax’s link expired', async () => {
    const vendor = await startFakeMiniMax({ queriesUntilDone: 1, linkLifetimeSeconds: 60 });
    const kept = await startTestGateway({
      content: { dir: temporaryContentDirectory(), video_ttl_seconds: 172_800 },
      videos: quickVideoSettings,
      providers: { minimax: { type: 'minimax', api_key: 'minimax-key', base_url: vendor.url } },
      models: [{ id: 'hailuo-02', output_modality: 'video', routes: [{ provider: 'minimax', model: 'MiniMax-Hailuo-02' }], price: hailuoPrices }],
    });
    const keptClient = new OpenAI({ baseURL: `${kept.url}/v1`, apiKey: 'unused', maxRetries: 0 });
    try {
      const created = await keptClient.videos.create({ model: 'hailuo-02', prompt: 'a tide pool', seconds: '6', size: '1920x1080' } as unknown as VideoCreateParams);
      expect((await pollUntilDone(keptClient, created.id)).video.status).toBe('completed');
      const link = vendor.links.at(-1) ?? '';
      expect((await fetch(link)).status).toBe(200);

      // A day on, for MiniMax's storage and for the gateway alike (both read this process's clock).
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(Date.now() + 86_400_000);
      const expired = await fetch(link);
      expect(expired.status).toBe(403);
      expect(await expired.text()).toContain('Request has expired.');
      const probed = await ffprobe(Buffer.from(await (await keptClient.videos.downloadContent(created.id)).arrayBuffer()));
      expect(probed).toMatchObject({ codec: 'h264', width: 1920, height: 1080 });
      expect(Math.abs(probed.durationSeconds - 6)).toBeLessThan(0.1);
    } finally {
      vi.useRealTimers();
      await kept.close();
      await vendor.close();
    }
  });

  it('completes a job once after the gateway restarts mid-job on the same database', async () => {
    const directory = mkdtempSync(path.join(tmpdir(), 'switchyard-minimax-restart-'));
    const vendor = await startFakeMiniMax({ queriesUntilDone: 1 });
    const config = {
      database: { url: `sqlite:${path.join(directory, 'switchyard.db')}` },
      content: { dir: path.join(directory, 'content') },
      videos: quickVideoSettings,
      providers: { minimax: { type: 'minimax', api_key: 'minimax-key', base_url: vendor.url } },
      models: [{ id: 'hailuo-02', output_modality: 'video', routes: [{ provider: 'minimax', model: 'MiniMax-Hailuo-02' }], price: hailuoPrices }],
    };
    try {
      vendor.hold = true;
      const first = await startTestGateway(config);
      const firstClient = new OpenAI({ baseURL: `${first.url}/v1`, apiKey: 'unused', maxRetries: 0 });
      const created = await firstClient.videos.create({ model: 'hailuo-02', prompt: 'a train over a bridge', seconds: '6', size: '1366x768' } as unknown as VideoCreateParams);
      const task = [...vendor.tasks.values()].at(-1);
      for (let waited = 0; (task?.queries ?? 0) < 1 && waited < 5_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
      expect((await firstClient.videos.retrieve(created.id)).status).not.toBe('completed');
      await first.close();

      vendor.hold = false;
      const second = await startTestGateway(config);
      try {
        const client = new OpenAI({ baseURL: `${second.url}/v1`, apiKey: 'unused', maxRetries: 0 });
        expect((await pollUntilDone(client, created.id)).video.status).toBe('completed');
        const probed = await ffprobe(Buffer.from(await (await client.videos.downloadContent(created.id)).arrayBuffer()));
        expect(probed).toMatchObject({ width: 1366, height: 768 });
        expect(vendor.api.requests.filter((request) => request.path === '/v1/video_generation')).toHaveLength(1);
        await second.services.ledger.flush();
        const entries = (await second.services.storage.ledger.list({ limit: 100 })).filter((entry) => entry.requestId === created.id);
        expect(entries).toMatchObject([{ videoSeconds: 6, costNanoUsd: 270_000_000n }]);
      } finally {
        await second.close();
      }
    } finally {
      await vendor.close();
      rmSync(directory, { recursive: true, force: true });
    }
  });
});

describe('MiniMax on the built-in simulator', () => {
  it('makes a Hailuo video offline, served and charged as from MiniMax', async () => {
    const offline = await startTestGateway({
      content: { dir: temporaryContentDirectory() },
      videos: quickVideoSettings,
      providers: { minimax: { type: 'minimax', api_key: 'any', base_url: 'builtin:sim' } },
      models: [{ id: 'hailuo-02', output_modality: 'video', routes: [{ provider: 'minimax', model: 'MiniMax-Hailuo-02' }], price: hailuoPrices }],
    });
    try {
      const offlineClient = new OpenAI({ baseURL: `${offline.url}/v1`, apiKey: 'unused', maxRetries: 0 });
      const created = await offlineClient.videos.create({ model: 'hailuo-02', prompt: 'a harbour at night [video-ms:800]', seconds: '10', size: '1366x768' } as unknown as VideoCreateParams);
      expect((await pollUntilDone(offlineClient, created.id)).video.status).toBe('completed');
      const probed = await ffprobe(Buffer.from(await (await offlineClient.videos.downloadContent(created.id)).arrayBuffer()));
      expect(probed).toMatchObject({ codec: 'h264', width: 1366, height: 768 });
      expect(Math.abs(probed.durationSeconds - 10)).toBeLessThan(0.1);
      await offline.services.ledger.flush();
      const entries = (await offline.services.storage.ledger.list({ limit: 100 })).filter((entry) => entry.requestId === created.id);
      // 10 s × $0.045 = $0.45.
      expect(entries).toMatchObject([{ provider: 'minimax', videoSeconds: 10, costNanoUsd: 450_000_000n }]);
    } finally {
      await offline.close();
    }
  });
});
