import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/default-config.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { pollUntilDone, quickVideoSettings, temporaryContentDirectory } from '../support/video-jobs.js';

/**
 * A submit that names no `size` and no `seconds` is made at the defaults the model's record
 * publishes in `/v1/videos/models` (the first variant sold for the mode, its shortest length), and
 * charged for exactly that.
 */

let gateway: TestGateway;
let client: OpenAI;

interface PublishedDefault {
  mode: string;
  size: string;
  resolution: string;
  aspect_ratio: string;
  seconds: string;
}
interface PublishedModel {
  id: string;
  variants: { mode: string; size: string; usd_per_second: string }[];
  defaults: PublishedDefault[];
}

beforeAll(async () => {
  gateway = await startTestGateway({ ...defaultConfig({}), videos: quickVideoSettings, content: { dir: temporaryContentDirectory() } });
  client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'unused', maxRetries: 0 });
});
afterAll(async () => {
  await gateway.close();
});

describe('a video submit without size or seconds', () => {
  it('gets the defaults /v1/videos/models states for its mode, and is charged for them', async () => {
    const models = (await (await fetch(`${gateway.url}/v1/videos/models`)).json()) as { data: PublishedModel[] };
    const model = models.data.find((candidate) => candidate.id === 'sim-video');
    const stated = model?.defaults.find((entry) => entry.mode === 'text-to-video');
    expect(stated).toBeDefined();
    const price = model?.variants.find((variant) => variant.mode === 'text-to-video' && variant.size === stated?.size)?.usd_per_second;

    const created = await client.videos.create({ model: 'sim-video', prompt: 'a quiet pier [video-ms:400]' });
    expect(created).toMatchObject({ seconds: stated?.seconds, size: stated?.size });
    const { video } = await pollUntilDone(client, created.id);
    expect(video.status).toBe('completed');
    const seconds = Number(stated?.seconds);
    const [whole = '0', fraction = ''] = (price ?? 'x').split('.');
    const perSecondNano = BigInt(whole) * 1_000_000_000n + BigInt(fraction.padEnd(9, '0'));
    const entry = (await gateway.services.storage.ledger.list({ limit: 100 })).find((candidate) => candidate.requestId === created.id);
    expect(entry).toMatchObject({ videoSeconds: seconds, costNanoUsd: perSecondNano * BigInt(seconds) });
  });
});
