import type { VideoCreateParams } from 'openai/resources/videos';
import OpenAI, { BadRequestError, toFile } from 'openai';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LedgerEntry } from '../../src/metering/ledger-entry.js';
import { ffprobe } from '../support/ffprobe.js';
import { startFakeReplicate, type FakeReplicate } from '../support/fake-replicate/index.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { pollUntilDone, quickVideoSettings, temporaryContentDirectory } from '../support/video-jobs.js';

/**
 * Video models on Replicate through the gateway, driven with the `openai` SDK against the fake
 * Replicate: each model reached in its own input fields by its built-in map, the prediction polled
 * by the worker, its output (a link that dies a minute after the prediction ends) copied into the
 * content store and served from there, each job charged its delivered seconds × its variant's
 * price, and nothing for a failed, refused, aborted or cancelled one. (A restart mid-job:
 * replicate-videos-restart.test.ts.)
 */

const token = 'r8_gateway_upstream_token';
const day = 24 * 60 * 60 * 1000;
let fake: FakeReplicate;
let gateway: TestGateway;
let client: OpenAI;

/** Replicate's models take lengths and sizes the SDK's types (Sora's) do not list; the SDK sends them as given. */
function videoParams(params: Omit<VideoCreateParams, 'seconds' | 'size'> & { seconds: string; size: string }): VideoCreateParams {
  return params as unknown as VideoCreateParams;
}

function replicateConfig(baseUrl: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    content: { dir: temporaryContentDirectory(), video_ttl_seconds: 2 * 24 * 60 * 60 },
    videos: quickVideoSettings,
    providers: { replicate: { type: 'replicate', base_url: baseUrl, api_key: token } },
    models: [
      {
        id: 'veo-3-fast-replicate',
        output_modality: 'video',
        routes: [{ provider: 'replicate', model: 'google/veo-3-fast' }],
        price: { effective_from: '2026-01-01', per_second: { 'text-to-video/720p/16:9': '0.15', 'text-to-video/720p/9:16': '0.15' } },
      },
      {
        id: 'kling-v2.1',
        output_modality: 'video',
        routes: [{ provider: 'replicate', model: 'kwaivgi/kling-v2.1' }],
        price: { effective_from: '2026-01-01', per_second: { 'image-to-video/1080p/16:9': '0.09', 'image-to-video/720p/16:9': '0.05' } },
      },
    ],
    ...extra,
  };
}

beforeAll(async () => {
  fake = await startFakeReplicate({ token });
  gateway = await startTestGateway(replicateConfig(fake.baseUrl));
  client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'unused', maxRetries: 0 });
});
afterAll(async () => {
  await gateway?.close();
  await fake?.close();
});
beforeEach(() => {
  fake.apiRequests.length = 0;
  fake.deliveryRequests.length = 0;
});

async function ledgerEntriesOf(target: TestGateway, jobId: string): Promise<LedgerEntry[]> {
  await target.services.ledger.flush();
  return (await target.services.storage.ledger.list({ limit: 10_000 })).filter((entry) => entry.requestId === jobId);
}

function creates(): unknown[] {
  return fake.apiRequests.filter((request) => request.method === 'POST' && !request.path.endsWith('/cancel')).map((request) => JSON.parse(request.body) as unknown);
}

describe('a text-to-video job on Replicate', () => {
  it('reaches Veo in its own fields, is copied before its link expires, still downloads a day later, and is charged its seconds', async () => {
    const created = await client.videos.create({ model: 'veo-3-fast-replicate', prompt: 'a heron over a lake', seconds: '8', size: '720x1280' });
    expect(created).toMatchObject({ status: 'queued', seconds: '8', size: '720x1280' });
    const { video } = await pollUntilDone(client, created.id);
    expect(video.status).toBe('completed');
    expect((video as unknown as { usage: unknown }).usage).toEqual({ seconds: 8, cost_usd: '1.20' });

    expect(creates()).toEqual([{ input: { prompt: 'a heron over a lake', aspect_ratio: '9:16', duration: 8, resolution: '720p' } }]);
    expect(fake.apiRequests.every((request) => request.headers.authorization === `Bearer ${token}`)).toBe(true);
    expect(fake.apiRequests[0]?.path).toBe('/v1/models/google/veo-3-fast/predictions');
    // The output lives on another origin, as replicate.delivery does: the token never goes there.
    expect(fake.deliveryRequests).toHaveLength(1);
    expect(fake.deliveryRequests[0]?.headers.authorization).toBeUndefined();

    const first = Buffer.from(await (await client.videos.downloadContent(created.id)).arrayBuffer());
    const probed = await ffprobe(first);
    expect(probed).toMatchObject({ codec: 'h264', width: 720, height: 1280 });
    expect(Math.abs(probed.durationSeconds - 8)).toBeLessThan(0.1);
    expect(await ledgerEntriesOf(gateway, created.id)).toMatchObject([{ provider: 'replicate', upstreamModel: 'google/veo-3-fast', videoSeconds: 8, costNanoUsd: 1_200_000_000n }]);

    // A day on (the fake's clock and the gateway's alike): Replicate's link is gone, the gateway's copy is not.
    const outputUrl = `${fake.deliveryUrl}${fake.deliveryRequests[0]?.path ?? ''}`;
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + day });
    try {
      expect((await fetch(outputUrl)).status).toBe(404);
      const later = Buffer.from(await (await client.videos.downloadContent(created.id)).arrayBuffer());
      expect(later.equals(first)).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('an image-to-video job on Replicate', () => {
  it('sends the uploaded first frame in Kling’s own field and mode, and charges the 1080p price', async () => {
    const frame = await sharp({ create: { width: 64, height: 36, channels: 3, background: '#aa6633' } }).png().toBuffer();
    const created = await client.videos.create(
      videoParams({
        model: 'kling-v2.1',
        prompt: 'the kite lifts',
        seconds: '5',
        size: '1920x1080',
        input_reference: await toFile(frame, 'frame.png', { type: 'image/png' }),
      }),
    );
    const { video } = await pollUntilDone(client, created.id);
    expect(video.status).toBe('completed');
    expect(creates()).toEqual([{ input: { prompt: 'the kite lifts', start_image: `data:image/png;base64,${frame.toString('base64')}`, mode: 'pro', duration: 5 } }]);
    const probed = await ffprobe(Buffer.from(await (await client.videos.downloadContent(created.id)).arrayBuffer()));
    expect(probed).toMatchObject({ codec: 'h264', width: 1920, height: 1080 });
    expect(Math.abs(probed.durationSeconds - 5)).toBeLessThan(0.1);
    expect(await ledgerEntriesOf(gateway, created.id)).toMatchObject([{ videoSeconds: 5, costNanoUsd: 450_000_000n }]);
  });
});

describe('jobs Replicate does not deliver', () => {
  it.each([
    ['fails', '[fail]', 'upstream_failed', /out of memory/],
    ['refuses as NSFW', '[nsfw]', 'content_filtered', /NSFW/],
    ['aborts past its deadline', '[abort]', 'upstream_aborted', /deadline/],
  ])('a prediction Replicate %s ends failed, with its reason, and costs nothing', async (_what, marker, code, reason) => {
    const created = await client.videos.create({ model: 'veo-3-fast-replicate', prompt: `a storm ${marker}`, seconds: '8', size: '1280x720' });
    const { video } = await pollUntilDone(client, created.id);
    expect(video.status).toBe('failed');
    expect(video.error).toMatchObject({ code, message: expect.stringMatching(reason) });
    expect(fake.deliveryRequests).toHaveLength(0);
    const entries = await ledgerEntriesOf(gateway, created.id);
    expect(entries.every((entry) => entry.costNanoUsd === 0n)).toBe(true);
  });

  it('a job deleted while it renders cancels its prediction and costs nothing', async () => {
    const created = await client.videos.create({ model: 'veo-3-fast-replicate', prompt: 'a long pan [render-ms:60000]', seconds: '8', size: '1280x720' });
    await expect(client.videos.delete(created.id)).resolves.toMatchObject({ id: created.id, deleted: true });
    const cancel = fake.apiRequests.find((request) => request.path.endsWith('/cancel'));
    expect(cancel).toMatchObject({ method: 'POST', headers: { authorization: `Bearer ${token}` } });
    const [prediction] = [...fake.predictions.values()].filter((candidate) => candidate.input.prompt === 'a long pan [render-ms:60000]');
    expect(prediction?.canceledAt).toBeDefined();
    const entries = await ledgerEntriesOf(gateway, created.id);
    expect(entries.every((entry) => entry.costNanoUsd === 0n)).toBe(true);
  });

  it('a create Replicate refuses (422, 402) reaches the client in OpenAI’s error shape and costs nothing', async () => {
    const predictionsBefore = fake.predictions.size;
    fake.refuseNextCreate({ status: 422, body: { title: 'Input validation failed', detail: '- input.prompt: too long', status: 422 } });
    const invalid = await client.videos.create({ model: 'veo-3-fast-replicate', prompt: 'refused', seconds: '8', size: '1280x720' }).catch((error: unknown) => error);
    expect(invalid).toMatchObject({ status: 422 });
    expect(String((invalid as Error).message)).toContain('input.prompt: too long');

    // Billing is the gateway's account: an upstream failure, retried (and tried on a next route) like any.
    const billing = { status: 402, body: { title: 'Billing required', detail: 'You need to set up billing to run this model.', status: 402 } };
    fake.refuseNextCreate(billing);
    fake.refuseNextCreate(billing);
    const unbilled = await client.videos.create({ model: 'veo-3-fast-replicate', prompt: 'unbilled', seconds: '8', size: '1280x720' }).catch((error: unknown) => error);
    expect(unbilled).toMatchObject({ status: 502 });
    expect(String((unbilled as Error).message)).toContain('Billing required');
    expect(creates()).toHaveLength(3);
    expect(fake.predictions.size).toBe(predictionsBefore);
    const charged = (await gateway.services.storage.ledger.list({ limit: 10_000 })).filter((entry) => entry.model === 'veo-3-fast-replicate' && entry.status >= 400);
    expect(charged.every((entry) => entry.costNanoUsd === 0n)).toBe(true);
  });
});

describe('what a Replicate route can express', () => {
  it('lists only the variants the built-in maps can ask for and the config prices', async () => {
    const listed = (await (await fetch(`${gateway.url}/v1/videos/models`)).json()) as { data: { id: string; modes: string[]; variants: { mode: string; size: string; seconds: string[] }[] }[] };
    const veo = listed.data.find((model) => model.id === 'veo-3-fast-replicate');
    expect(veo?.variants.map((variant) => `${variant.mode} ${variant.size} ${variant.seconds.join('/')}`).sort()).toEqual(['text-to-video 1280x720 8', 'text-to-video 720x1280 8']);
    expect(listed.data.find((model) => model.id === 'kling-v2.1')?.modes).toEqual(['image-to-video']);
  });

  it('refuses bad input before anything is sent to Replicate', async () => {
    await expect(client.videos.create({ model: 'veo-3-fast-replicate', prompt: 'too short', seconds: '4', size: '1280x720' })).rejects.toBeInstanceOf(BadRequestError);
    await expect(client.videos.create(videoParams({ model: 'kling-v2.1', prompt: 'no frame', seconds: '5', size: '1920x1080' }))).rejects.toBeInstanceOf(BadRequestError);
    expect(fake.apiRequests).toHaveLength(0);
  });

  it('refuses at start a configured variant the model’s inputs cannot ask for, naming it', async () => {
    const config = replicateConfig(fake.baseUrl);
    const models = config.models as Record<string, unknown>[];
    const wrong = { ...models[0], video: { variants: [{ mode: 'text-to-video', resolution: '720p', aspect_ratio: '16:9', seconds: [4, 8], usd_per_second: '0.15' }] } };
    await expect(startTestGateway({ ...config, models: [wrong] })).rejects.toThrow(/models\[0\]\.routes\[0\]\.model: .*text-to-video 720p 16:9 .*not 4/);
  });
});
