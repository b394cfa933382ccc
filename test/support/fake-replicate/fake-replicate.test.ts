import Replicate, { parseProgressFromLogs } from 'replicate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ffprobe } from '../ffprobe.js';
import { outputUrlLifetimeMs, startFakeReplicate, type FakeReplicate } from './index.js';

/**
 * The fake Replicate is driven with Replicate's own SDK (`replicate`, pointed at it with
 * `baseUrl`): if the SDK creates, waits for, cancels and reads predictions from it as it does from
 * Replicate, the fake the gateway's tests use speaks Replicate's protocol.
 */

let fake: FakeReplicate;
let clockOffsetMs = 0;
const token = 'r8_sdk_test_token';
let sdk: Replicate;

beforeAll(async () => {
  fake = await startFakeReplicate({ token, now: () => Date.now() + clockOffsetMs });
  sdk = new Replicate({ auth: token, baseUrl: fake.baseUrl });
});
afterAll(async () => {
  await fake.close();
});

describe('the fake Replicate, through the replicate SDK', () => {
  it('runs an official video model to a real MP4 whose URL expires a minute after the prediction ends', async () => {
    const output = await sdk.run('google/veo-3-fast', { input: { prompt: 'a heron takes off', aspect_ratio: '9:16', duration: 8 }, wait: { mode: 'poll', interval: 50 } });
    expect(typeof output).toBe('string');
    const url = String(output);
    expect(url.startsWith(fake.deliveryUrl)).toBe(true);
    const create = fake.apiRequests.find((request) => request.method === 'POST');
    expect(create).toMatchObject({ path: '/v1/models/google/veo-3-fast/predictions', headers: { authorization: `Bearer ${token}` } });

    const probed = await ffprobe(new Uint8Array(await (await fetch(url)).arrayBuffer()));
    expect(probed).toMatchObject({ codec: 'h264', width: 720, height: 1280 });
    expect(Math.abs(probed.durationSeconds - 8)).toBeLessThan(0.1);

    clockOffsetMs += outputUrlLifetimeMs + 1_000;
    try {
      expect((await fetch(url)).status).toBe(404);
    } finally {
      clockOffsetMs = 0;
    }
  });

  it('answers a blocking run (Prefer: wait) with `starting`, so the SDK goes on polling instead of returning nothing', async () => {
    const output = await sdk.run('bytedance/seedance-1-pro', { input: { prompt: 'waves', duration: 3, resolution: '720p' } });
    expect(String(output)).toContain('/output.mp4');
    const blocking = fake.apiRequests.filter((request) => request.path === '/v1/models/bytedance/seedance-1-pro/predictions');
    expect(blocking.at(-1)?.headers.prefer).toMatch(/^wait/);
  });

  it('prints progress bars in its logs that the SDK reads as progress', async () => {
    const prediction = await sdk.predictions.create({ model: 'google/veo-3-fast', input: { prompt: 'a slow dawn [render-ms:400]' } });
    const seen: number[] = [];
    await sdk.wait(prediction, { interval: 40 }, async (polled) => {
      const progress = parseProgressFromLogs(polled);
      if (polled.status === 'processing' && progress !== null) seen.push(progress.percentage);
      return false;
    });
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((value, index) => value >= 0 && value <= 1 && (index === 0 || value >= (seen[index - 1] ?? 0)))).toBe(true);
  });

  it('creates on a version, and refuses an unknown one as Replicate does', async () => {
    const version = '5c7d5dc6dd8bf75c1acaa8565735e7986bc5b66206b55cca93cb72c9bf15ccaa';
    const prediction = await sdk.predictions.create({ version, input: { prompt: 'a kite' } });
    expect(prediction).toMatchObject({ status: 'starting', version, urls: { get: `${fake.baseUrl}/predictions/${prediction.id}` } });
    await expect(sdk.predictions.create({ version: 'nope', input: { prompt: 'a kite' } })).rejects.toThrow(/Invalid version or not permitted/);
  });

  it('cancels a running prediction, fails, refuses and aborts others', async () => {
    const running = await sdk.predictions.create({ model: 'google/veo-3-fast', input: { prompt: 'slow [render-ms:60000]' } });
    expect((await sdk.predictions.cancel(running.id)).status).toBe('canceled');
    expect((await sdk.predictions.get(running.id)).status).toBe('canceled');

    await expect(sdk.run('google/veo-3-fast', { input: { prompt: 'breaks [fail]' }, wait: { mode: 'poll', interval: 50 } })).rejects.toThrow(/Prediction failed/);
    await expect(sdk.run('google/veo-3-fast', { input: { prompt: 'unsafe [nsfw]' }, wait: { mode: 'poll', interval: 50 } })).rejects.toThrow(/NSFW/);
    const aborted = await sdk.predictions.create({ model: 'google/veo-3-fast', input: { prompt: 'late [abort]' } });
    // The SDK's wait() knows no `aborted` and would poll forever: its stop callback ends it.
    const ended = await sdk.wait(aborted, { interval: 50 }, async (polled) => polled.status === 'aborted');
    expect(ended).toMatchObject({ status: 'aborted', output: null });
  });

  it('checks the token and the model’s input, and answers a 429 the SDK retries', async () => {
    const stranger = new Replicate({ auth: 'r8_wrong', baseUrl: fake.baseUrl });
    await expect(stranger.predictions.create({ model: 'google/veo-3-fast', input: { prompt: 'x' } })).rejects.toThrow(/401/);
    await expect(sdk.predictions.create({ model: 'kwaivgi/kling-v2.1', input: { prompt: 'no image' } })).rejects.toThrow(/start_image/);

    fake.refuseNextCreate({ status: 429, body: { detail: 'Too many requests' }, headers: { 'retry-after': '1' } });
    const before = fake.apiRequests.length;
    const prediction = await sdk.predictions.create({ model: 'google/veo-3-fast', input: { prompt: 'after a wait' } });
    expect(prediction.status).toBe('starting');
    // The SDK retries a create refused with 429 (its own back-off: it reads Retry-After but sleeps its interval).
    expect(fake.apiRequests.slice(before).map((request) => request.path)).toEqual(['/v1/models/google/veo-3-fast/predictions', '/v1/models/google/veo-3-fast/predictions']);
  });

  it('removes an API prediction’s output an hour after it ends', async () => {
    const prediction = await sdk.predictions.create({ model: 'google/veo-3-fast', input: { prompt: 'brief' } });
    const done = await sdk.wait(prediction, { interval: 50 });
    expect(done.status).toBe('succeeded');
    clockOffsetMs += 60 * 60 * 1000 + 1_000;
    try {
      expect(await sdk.predictions.get(prediction.id)).toMatchObject({ status: 'succeeded', output: null, data_removed: true });
    } finally {
      clockOffsetMs = 0;
    }
  });
});
