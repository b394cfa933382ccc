import type { VideoCreateParams } from 'openai/resources/videos';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ffprobe } from '../support/ffprobe.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { pollUntilDone, quickVideoSettings, temporaryContentDirectory } from '../support/video-jobs.js';

/**
 * The built-in simulator answers Replicate's predictions, so a `type: replicate` provider runs
 * offline: the `openai` SDK's job completes with a real MP4 of the variant asked, and `FILTER`
 * is the model's NSFW refusal, free.
 */

let gateway: TestGateway;
let client: OpenAI;

/** Replicate's models take lengths and sizes the SDK's types (Sora's) do not list; the SDK sends them as given. */
function videoParams(params: Omit<VideoCreateParams, 'seconds' | 'size'> & { seconds: string; size: string }): VideoCreateParams {
  return params as unknown as VideoCreateParams;
}

beforeAll(async () => {
  gateway = await startTestGateway({
    content: { dir: temporaryContentDirectory() },
    videos: quickVideoSettings,
    providers: { replicate: { type: 'replicate', base_url: 'builtin:sim' } },
    models: [
      {
        id: 'seedance-sim',
        output_modality: 'video',
        routes: [{ provider: 'replicate', model: 'bytedance/seedance-1-pro' }],
        price: { effective_from: '2026-01-01', per_second: { 'text-to-video/1080p/16:9': '0.10' } },
      },
    ],
  });
  client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'unused', maxRetries: 0 });
});
afterAll(async () => {
  await gateway?.close();
});

describe('Replicate in the simulator', () => {
  it('completes a prediction with a real MP4 of the variant asked, charged its seconds', async () => {
    const created = await client.videos.create(videoParams({ model: 'seedance-sim', prompt: 'a paper boat [video-ms:300]', seconds: '3', size: '1920x1080' }));
    const { video } = await pollUntilDone(client, created.id);
    expect(video.status).toBe('completed');
    const probed = await ffprobe(Buffer.from(await (await client.videos.downloadContent(created.id)).arrayBuffer()));
    expect(probed).toMatchObject({ codec: 'h264', width: 1920, height: 1080 });
    expect(Math.abs(probed.durationSeconds - 3)).toBeLessThan(0.1);
    expect((video as unknown as { usage: unknown }).usage).toEqual({ seconds: 3, cost_usd: '0.30' });
  });

  it('refuses a FILTER prompt as the model’s NSFW check would, free', async () => {
    const created = await client.videos.create(videoParams({ model: 'seedance-sim', prompt: 'FILTER this [video-ms:300]', seconds: '3', size: '1920x1080' }));
    const { video } = await pollUntilDone(client, created.id);
    expect(video.status).toBe('failed');
    expect(video.error).toMatchObject({ code: 'content_filtered', message: expect.stringContaining('NSFW') });
    await gateway.services.ledger.flush();
    const entries = (await gateway.services.storage.ledger.list({ limit: 100 })).filter((entry) => entry.requestId === created.id);
    expect(entries.every((entry) => entry.costNanoUsd === 0n)).toBe(true);
  });
});
