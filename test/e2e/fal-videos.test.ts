import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import OpenAI, { toFile } from 'openai';
import type { VideoCreateParams } from 'openai/resources/videos';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { encodedSecondFor } from '../../src/sim/videos/encoded-second.js';
import { muxMp4 } from '../../src/sim/videos/mux-mp4.js';
import type { LedgerEntry } from '../../src/metering/ledger-entry.js';
import { startFakeFal, type FakeFal } from '../support/fake-fal/fake-fal.js';
import { readJsonFixture } from '../support/fixtures.js';
import { ffprobe } from '../support/ffprobe.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { pollUntilDone, quickVideoSettings, temporaryContentDirectory } from '../support/video-jobs.js';

/**
 * Video models on fal's queue through the gateway, driven with the `openai` SDK against a fake fal
 * (test/support/fake-fal/, proven with fal's own SDK): submitted in each endpoint's own fields,
 * followed through the queue's states, the result read, the MP4 copied off fal's CDN into the
 * content store before the job completes, and charged the delivered seconds at the variant's price.
 */
const kling = 'fal-ai/kling-video/v2.1/master/text-to-video';
const veoFromImage = 'fal-ai/veo3.1/image-to-video';
const custom = 'acme/custom-video';

/** A real H.264 MP4 of a size and length, made by the simulator's muxer. */
async function mp4(size: string, seconds: number): Promise<Buffer> {
  const encoded = await encodedSecondFor(size);
  if (encoded === undefined) throw new Error(`no frames for ${size}`);
  return muxMp4(encoded, seconds);
}

let fal: FakeFal;
let gateway: TestGateway;
let client: OpenAI;
let fullHd5s: Buffer;
let hd8s: Buffer;
let hd4s: Buffer;

const models = [
  // A Kling endpoint the gateway knows by id: its fields, variants and fal's list price are built in.
  { id: 'kling-fal', output_modality: 'video', routes: [{ provider: 'fal', model: kling }] },
  { id: 'veo-fal-frame', output_modality: 'video', routes: [{ provider: 'fal', model: veoFromImage }] },
  // An endpoint the gateway does not know: the route's input map names its fields.
  {
    id: 'custom-fal',
    output_modality: 'video',
    routes: [{ provider: 'fal', model: custom, input: { prompt: '{prompt}', length: '{seconds}', dims: { width: '{width}', height: '{height}' }, label: 'clip-{seconds}s', quality: 'fast' } }],
    video: { variants: [{ mode: 'text-to-video', resolution: '720p', aspect_ratio: '16:9', seconds: [4, 8], usd_per_second: '0.05' }] },
  },
];

function falProvider(fake: FakeFal): Record<string, unknown> {
  return { fal: { type: 'fal', api_key: fake.key, base_url: fake.url } };
}

beforeAll(async () => {
  [fullHd5s, hd8s, hd4s] = await Promise.all([mp4('1920x1080', 5), mp4('1280x720', 8), mp4('1280x720', 4)]);
  fal = await startFakeFal();
  gateway = await startTestGateway({ content: { dir: temporaryContentDirectory() }, videos: quickVideoSettings, providers: falProvider(fal), models });
  client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'unused', maxRetries: 0 });
});
afterAll(async () => {
  await gateway.close();
  await fal.close();
});
beforeEach(() => {
  fal.calls.length = 0;
  fal.cdnCalls.length = 0;
  fal.plan = (endpointId) => ({ queuedPolls: 2, runningPolls: 2, outcome: { video: endpointId === kling ? fullHd5s : endpointId === veoFromImage ? hd8s : hd4s } });
});

async function ledgerEntriesOf(jobId: string): Promise<LedgerEntry[]> {
  await gateway.services.ledger.flush();
  return (await gateway.services.storage.ledger.list({ limit: 10_000 })).filter((entry) => entry.requestId === jobId);
}

/** The SDK types `seconds` and `size` as OpenAI's own values; fal's models take others. */
const seconds = (value: string) => value as VideoCreateParams['seconds'];
const size = (value: string) => value as VideoCreateParams['size'];

describe('a text-to-video job on fal', () => {
  let jobId: string;

  it('is submitted in the endpoint\'s fields, followed through the queue, stored, served and charged delivered seconds × the variant price', async () => {
    const created = await client.videos.create({ model: 'kling-fal', prompt: 'a red fox in the snow', seconds: seconds('5'), size: size('1920x1080') });
    jobId = created.id;
    const { video, progress, statuses } = await pollUntilDone(client, created.id);
    expect(video.status).toBe('completed');
    expect(statuses).toContain('queued');
    expect(progress).toEqual([...progress].sort((left, right) => left - right));

    const [submit, ...rest] = fal.calls;
    expect(submit).toMatchObject({ method: 'POST', path: `/${kling}`, body: { prompt: 'a red fox in the snow', duration: '5', aspect_ratio: '16:9' } });
    expect(submit?.headers.authorization).toBe(`Key ${fal.key}`);
    const request = [...fal.requests.values()].find((candidate) => candidate.input === submit?.body);
    const queuePath = `/fal-ai/kling-video/requests/${request?.id ?? ''}`;
    expect(rest.filter((call) => call.path === `${queuePath}/status?logs=1`).length).toBeGreaterThanOrEqual(5);
    expect(rest.filter((call) => call.method === 'GET' && call.path === queuePath)).toHaveLength(1);
    expect(rest.every((call) => call.headers.authorization === `Key ${fal.key}`)).toBe(true);
    // fal's CDN is another host and serves its files to anyone with the link: fal's key stays with the queue.
    expect(fal.cdnCalls).toHaveLength(1);
    expect(fal.cdnCalls[0]?.headers.authorization).toBeUndefined();

    const bytes = Buffer.from(await (await client.videos.downloadContent(created.id)).arrayBuffer());
    const probed = await ffprobe(bytes);
    expect(probed).toMatchObject({ codec: 'h264', width: 1920, height: 1080 });
    expect(Math.abs(probed.durationSeconds - 5)).toBeLessThan(0.1);
    // Kling 2.1 Master on fal: $0.28 a second; 5 s delivered.
    expect(await ledgerEntriesOf(created.id)).toMatchObject([{ provider: 'fal', model: 'kling-fal', videoSeconds: 5, costNanoUsd: 1_400_000_000n }]);
  });

  it('is still served by the gateway a day later, when fal\'s link expired a minute after completion', async () => {
    const job = await client.videos.retrieve(jobId);
    const link = `${fal.cdnUrl}/files/${[...fal.requests.values()].find((request) => request.endpointId === kling && request.state === 'completed')?.id ?? ''}/output.mp4`;
    fal.clock.advance(24 * 3600 * 1000);
    expect((await fetch(link)).status).toBe(404);

    const bytes = Buffer.from(await (await client.videos.downloadContent(jobId)).arrayBuffer());
    expect(bytes.equals(fullHd5s)).toBe(true);
    // The gateway's copy is kept for content.video_ttl_seconds (a day), counted from when its download
    // began; completed_at is stamped a moment later, and both are whole seconds, so a second boundary
    // between them shows as 86,399.
    expect((job.expires_at ?? 0) - (job.completed_at ?? 0)).toBeGreaterThanOrEqual(86_399);
  });

  it('shows its queue position as queued at 0 % and the runner\'s logged percentage while it runs', async () => {
    fal.plan = () => ({ queuedPolls: 3, runningPolls: 3, outcome: { video: fullHd5s } });
    const created = await client.videos.create({ model: 'kling-fal', prompt: 'slow clouds', seconds: seconds('5'), size: size('1920x1080') });
    const { statuses, progress } = await pollUntilDone(client, created.id);
    const running = progress.filter((_, index) => statuses[index] === 'in_progress');
    expect(progress.filter((_, index) => statuses[index] === 'queued').every((value) => value === 0)).toBe(true);
    expect(running.some((value) => value === 25 || value === 50 || value === 75)).toBe(true);
  });
});

describe('an image-to-video job on fal', () => {
  it('sends the uploaded first frame as a data: URL in the endpoint\'s image field, with Veo\'s "8s" length', async () => {
    const frame = await sharp({ create: { width: 64, height: 36, channels: 3, background: '#3366aa' } }).png().toBuffer();
    const created = await client.videos.create({
      model: 'veo-fal-frame',
      prompt: 'the frame comes alive',
      seconds: seconds('8'),
      size: size('1280x720'),
      input_reference: await toFile(frame, 'frame.png', { type: 'image/png' }),
    });
    const { video } = await pollUntilDone(client, created.id);
    expect(video.status).toBe('completed');
    expect(fal.calls[0]?.body).toEqual({ prompt: 'the frame comes alive', duration: '8s', aspect_ratio: '16:9', resolution: '720p', image_url: `data:image/png;base64,${frame.toString('base64')}` });
    const probed = await ffprobe(Buffer.from(await (await client.videos.downloadContent(created.id)).arrayBuffer()));
    expect(probed).toMatchObject({ codec: 'h264', width: 1280, height: 720 });
    expect(Math.abs(probed.durationSeconds - 8)).toBeLessThan(0.1);
    expect(await ledgerEntriesOf(created.id)).toMatchObject([{ videoSeconds: 8, costNanoUsd: 3_200_000_000n }]);
  });
});

describe('a route\'s input map', () => {
  it('fills an unknown endpoint\'s fields from the request: a lone placeholder keeps its number, text around one makes a string, literals stay', async () => {
    const created = await client.videos.create({ model: 'custom-fal', prompt: 'a lighthouse', seconds: seconds('4'), size: size('1280x720') });
    const { video } = await pollUntilDone(client, created.id);
    expect(video.status).toBe('completed');
    expect(fal.calls[0]).toMatchObject({ path: `/${custom}` });
    expect(fal.calls[0]?.body).toEqual({ prompt: 'a lighthouse', length: 4, dims: { width: 1280, height: 720 }, label: 'clip-4s', quality: 'fast' });
    expect(await ledgerEntriesOf(created.id)).toMatchObject([{ videoSeconds: 4, costNanoUsd: 200_000_000n }]);
  });
});

describe('a fal job that ends without a video', () => {
  it('is failed with fal\'s reason and free when the result is a content-policy refusal', async () => {
    fal.plan = () => ({ queuedPolls: 0, runningPolls: 1, outcome: { status: 422, body: readJsonFixture('fal/errors/content-policy-violation.litellm.json') } });
    const created = await client.videos.create({ model: 'kling-fal', prompt: 'a famous face', seconds: seconds('5'), size: size('1920x1080') });
    const { video } = await pollUntilDone(client, created.id);
    expect(video.status).toBe('failed');
    expect(video.error).toMatchObject({ code: 'content_filtered', message: expect.stringContaining('likenesses of real people') as string });
    expect(fal.cdnCalls).toHaveLength(0);
    expect(await ledgerEntriesOf(created.id)).toMatchObject([{ videoSeconds: 0, costNanoUsd: 0n }]);
  });

  it('is failed with fal\'s reason and free when the runner could not read its input', async () => {
    fal.plan = () => ({ queuedPolls: 0, runningPolls: 0, outcome: { status: 422, body: readJsonFixture('fal/errors/file-download-error.litellm.json') } });
    const created = await client.videos.create({ model: 'kling-fal', prompt: 'anything', seconds: seconds('5'), size: size('1920x1080') });
    const { video } = await pollUntilDone(client, created.id);
    expect(video.error).toMatchObject({ code: 'file_download_error', message: expect.stringContaining('Failed to download the file') as string });
    expect(await ledgerEntriesOf(created.id)).toMatchObject([{ costNanoUsd: 0n }]);
  });

  it('is cancelled on fal with a PUT and charged nothing when the client deletes it while queued', async () => {
    fal.plan = () => ({ queuedPolls: 1_000_000, runningPolls: 0, outcome: { video: fullHd5s } });
    const created = await client.videos.create({ model: 'kling-fal', prompt: 'never mind', seconds: seconds('5'), size: size('1920x1080') });
    const request = [...fal.requests.values()].at(-1);
    await client.videos.delete(created.id);
    expect(fal.calls.filter((call) => call.method === 'PUT')).toMatchObject([{ path: `/fal-ai/kling-video/requests/${request?.id ?? ''}/cancel` }]);
    expect(request?.state).toBe('cancelled');
    expect(await ledgerEntriesOf(created.id)).toMatchObject([{ costNanoUsd: 0n }]);
  });
});

describe('bad input', () => {
  /** What the ledger holds for the model: entries and their total cost. */
  async function ledgerOf(model: string): Promise<{ entries: number; cost: bigint }> {
    await gateway.services.ledger.flush();
    const entries = (await gateway.services.storage.ledger.list({ limit: 10_000 })).filter((entry) => entry.model === model);
    return { entries: entries.length, cost: entries.reduce((sum, entry) => sum + entry.costNanoUsd, 0n) };
  }

  it('is refused before anything reaches fal, and charged nothing: a length the endpoint does not make', async () => {
    const before = await ledgerOf('kling-fal');
    const refused = await client.videos.create({ model: 'kling-fal', prompt: 'x', seconds: seconds('7'), size: size('1920x1080') }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenAI.BadRequestError);
    expect((refused as InstanceType<typeof OpenAI.BadRequestError>).param).toBe('seconds');
    expect(fal.calls).toHaveLength(0);
    expect((await ledgerOf('kling-fal')).cost).toBe(before.cost);
  });

  it('is refused before anything reaches fal, and charged nothing: an image-to-video request to a text-to-video endpoint', async () => {
    const before = await ledgerOf('kling-fal');
    const frame = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } }).png().toBuffer();
    const refused = await client.videos.create({ model: 'kling-fal', prompt: 'x', input_reference: await toFile(frame, 'f.png', { type: 'image/png' }) }).catch((error: unknown) => error);
    expect((refused as InstanceType<typeof OpenAI.BadRequestError>).status).toBe(400);
    expect((refused as InstanceType<typeof OpenAI.BadRequestError>).param).toBe('mode');
    expect(fal.calls).toHaveLength(0);
    expect((await ledgerOf('kling-fal')).cost).toBe(before.cost);
  });
});

describe('the video models list', () => {
  it('lists the fal models with only what their routes can ask fal for', async () => {
    const listed = (await (await fetch(`${gateway.url}/v1/videos/models`)).json()) as { data: { id: string; modes: string[]; durations: string[]; resolutions: string[]; aspect_ratios: string[] }[] };
    expect(listed.data.find((model) => model.id === 'kling-fal')).toMatchObject({ modes: ['text-to-video'], durations: ['5', '10'], resolutions: ['1080p'], aspect_ratios: ['16:9', '9:16', '1:1'] });
    expect(listed.data.find((model) => model.id === 'veo-fal-frame')).toMatchObject({ modes: ['image-to-video'], durations: ['4', '6', '8'], resolutions: ['720p', '1080p'], aspect_ratios: ['16:9', '9:16'] });
  });
});

describe('a fal job when its gateway stops', () => {
  it('is finished once by the next gateway on the same database', async () => {
    const directory = mkdtempSync(path.join(tmpdir(), 'switchyard-fal-restart-'));
    const config = { database: { url: `sqlite:${path.join(directory, 'switchyard.db')}` }, content: { dir: temporaryContentDirectory() }, videos: quickVideoSettings, providers: falProvider(fal), models };
    fal.plan = () => ({ queuedPolls: 1_000_000, runningPolls: 0, outcome: { video: fullHd5s } });
    const first = await startTestGateway(config);
    const created = await new OpenAI({ baseURL: `${first.url}/v1`, apiKey: 'unused', maxRetries: 0 }).videos.create({ model: 'kling-fal', prompt: 'across a restart', seconds: seconds('5'), size: size('1920x1080') });
    const request = [...fal.requests.values()].at(-1);
    await new Promise((resolve) => setTimeout(resolve, 500));
    await first.close();

    if (request !== undefined) request.plan = { queuedPolls: 0, runningPolls: 1, outcome: { video: fullHd5s } };
    const second = await startTestGateway(config);
    try {
      const secondClient = new OpenAI({ baseURL: `${second.url}/v1`, apiKey: 'unused', maxRetries: 0 });
      const { video } = await pollUntilDone(secondClient, created.id, 30_000);
      expect(video.status).toBe('completed');
      expect(fal.calls.filter((call) => call.method === 'POST')).toHaveLength(1);
      await second.services.ledger.flush();
      const entries = (await second.services.storage.ledger.list({ limit: 1_000 })).filter((entry) => entry.requestId === created.id);
      expect(entries).toMatchObject([{ videoSeconds: 5, costNanoUsd: 1_400_000_000n }]);
    } finally {
      await second.close();
    }
  });
});

describe('a fal job that never finishes', () => {
  it('fails at the deadline, free, and is cancelled on fal', async () => {
    const quickDeadline = await startTestGateway({ content: { dir: temporaryContentDirectory() }, videos: { ...quickVideoSettings, deadline_seconds: 2 }, providers: falProvider(fal), models });
    try {
      fal.plan = () => ({ queuedPolls: 1_000_000, runningPolls: 0, outcome: { video: fullHd5s } });
      const deadlineClient = new OpenAI({ baseURL: `${quickDeadline.url}/v1`, apiKey: 'unused', maxRetries: 0 });
      const created = await deadlineClient.videos.create({ model: 'kling-fal', prompt: 'forever', seconds: seconds('5'), size: size('1920x1080') });
      const { video } = await pollUntilDone(deadlineClient, created.id);
      expect(video.error).toMatchObject({ code: 'deadline_exceeded' });
      expect(fal.calls.some((call) => call.method === 'PUT' && call.path.endsWith('/cancel'))).toBe(true);
      await quickDeadline.services.ledger.flush();
      const entries = (await quickDeadline.services.storage.ledger.list({ limit: 1_000 })).filter((entry) => entry.requestId === created.id);
      expect(entries).toMatchObject([{ costNanoUsd: 0n }]);
    } finally {
      await quickDeadline.close();
    }
  });
});

describe('a fal provider on the built-in simulator', () => {
  it('makes a real MP4 through fal\'s queue shape, offline, charged at the built-in price', async () => {
    const offline = await startTestGateway({
      content: { dir: temporaryContentDirectory() },
      videos: quickVideoSettings,
      providers: { fal: { type: 'fal', base_url: 'builtin:sim' } },
      models: [{ id: 'veo-fal', output_modality: 'video', routes: [{ provider: 'fal', model: 'fal-ai/veo3.1' }] }],
    });
    try {
      const offlineClient = new OpenAI({ baseURL: `${offline.url}/v1`, apiKey: 'unused', maxRetries: 0 });
      const created = await offlineClient.videos.create({ model: 'veo-fal', prompt: 'a harbour at dusk [video-ms:600]', seconds: '4', size: '1280x720' });
      const { video } = await pollUntilDone(offlineClient, created.id);
      expect(video.status).toBe('completed');
      const probed = await ffprobe(Buffer.from(await (await offlineClient.videos.downloadContent(created.id)).arrayBuffer()));
      expect(probed).toMatchObject({ codec: 'h264', width: 1280, height: 720 });
      expect(Math.abs(probed.durationSeconds - 4)).toBeLessThan(0.1);
      await offline.services.ledger.flush();
      const entries = (await offline.services.storage.ledger.list({ limit: 100 })).filter((entry) => entry.requestId === created.id);
      expect(entries).toMatchObject([{ provider: 'fal', videoSeconds: 4, costNanoUsd: 1_600_000_000n }]);
    } finally {
      await offline.close();
    }
  });
});
