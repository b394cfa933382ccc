import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ScriptedUpstream, startScriptedUpstream } from '../support/scripted-upstream/index.js';
import { readFixture } from '../support/fixtures.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { pollUntilDone, quickVideoSettings, temporaryContentDirectory } from '../support/video-jobs.js';

/**
 * A video job the upstream fails carries the upstream's reason to the client with the job. That
 * reason is the upstream's own text: when it echoes the gateway's credential or the upstream's
 * host, neither may reach the client.
 */

const credential = 'sk-videoSECRET0123456789abcdef';
let upstream: ScriptedUpstream;
let gateway: TestGateway;
let client: OpenAI;
let upstreamHost: string;

beforeAll(async () => {
  upstream = await startScriptedUpstream();
  upstreamHost = upstream.url.replace('http://127.0.0.1', 'localhost').replace(/^http:\/\//, '');
  const queued = JSON.parse(readFixture('openai/videos/observed-one-api-readme.queued.json')) as Record<string, unknown>;
  upstream.reply((request) => {
    if (request.method === 'POST') return { body: JSON.stringify(queued) };
    const failure = { code: 'video_generation_failed', message: `Worker at ${upstreamHost} rejected key ${credential}: the prompt could not be rendered.` };
    return { body: JSON.stringify({ ...queued, status: 'failed', error: failure }) };
  });
  const variants = [{ mode: 'text-to-video', resolution: '720p', aspect_ratio: '16:9', seconds: [4, 8], usd_per_second: '0.40' }];
  gateway = await startTestGateway({
    content: { dir: temporaryContentDirectory() },
    videos: quickVideoSettings,
    providers: { videos: { type: 'openai', base_url: `http://${upstreamHost}/v1`, api_key: credential } },
    models: [{ id: 'sora-like', output_modality: 'video', routes: [{ provider: 'videos', model: 'sora-2' }], video: { variants }, price: { effective_from: '2026-01-01' } }],
  });
  client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'unused', maxRetries: 0 });
});

afterAll(async () => {
  await gateway.close();
  await upstream.close();
});

describe('a video job the upstream fails', () => {
  it("tells the client the upstream's reason without the credential or the host", async () => {
    const created = await client.videos.create({ model: 'sora-like', prompt: 'aurora', seconds: '4', size: '1280x720' });
    const { video } = await pollUntilDone(client, created.id);
    expect(video.status).toBe('failed');
    const message = video.error?.message ?? '';
    expect(message).toContain('the prompt could not be rendered');
    expect(message).not.toContain(credential);
    expect(message).not.toContain('localhost');
    expect(message).not.toContain(upstreamHost.split(':')[1] as string);
  });
});
