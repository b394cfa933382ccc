import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readFixture, readFixtureBytes } from '../support/fixtures.js';
import { startFakeVertex, type FakeVertex } from '../support/fake-vertex.js';
import { ffprobe } from '../support/ffprobe.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { json } from '../support/scripted-upstream/index.js';
import { pollUntilDone, quickVideoSettings, temporaryContentDirectory } from '../support/video-jobs.js';

/**
 * Veo on Vertex AI through the gateway: submitted at `:predictLongRunning`, polled at
 * `:fetchPredictOperation` with the operation's name, the finished video handed back inline
 * (Vertex's answer when the request names no bucket) and checked by ffprobe once the gateway has
 * stored and served it.
 */
const project = 'switchyard-test';
const location = 'us-central1';
const model = 'veo-3.0-generate-001';
const operation = `projects/${project}/locations/${location}/publishers/google/models/${model}/operations/0c335789-eab8-405f-8642-c583e12b1ddf`;
const mp4 = readFixtureBytes('generated/upstream-video-320x180-4s.mp4');

let vertex: FakeVertex;
let gateway: TestGateway;
let client: OpenAI;

beforeAll(async () => {
  vertex = await startFakeVertex({ project, location });
  const variants = [{ mode: 'text-to-video', resolution: '720p', aspect_ratio: '16:9', seconds: [4, 8], usd_per_second: '0.40' }];
  gateway = await startTestGateway({
    content: { dir: temporaryContentDirectory() },
    videos: quickVideoSettings,
    providers: { vertex: { type: 'vertex', project, location, credentials_file: vertex.account.keyFile, base_url: vertex.url } },
    models: [{ id: 'veo-vertex', output_modality: 'video', routes: [{ provider: 'vertex', model }], video: { variants }, price: { effective_from: '2026-01-01' } }],
  });
  client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'unused', maxRetries: 0 });
});
afterAll(async () => {
  await gateway.close();
  await vertex.close();
});
beforeEach(() => {
  vertex.accepted.length = 0;
  vertex.upstream.requests.length = 0;
});

/** The operation answered pending at its first poll, then `done`. */
function operationReplies(done: Record<string, unknown>): void {
  let polls = 0;
  vertex.answer((call) => {
    if (call.method === 'predictLongRunning') return json({ name: operation });
    if (call.method === 'fetchPredictOperation' && call.body.operationName === operation) return json(++polls < 2 ? { name: operation } : done);
    return json({ error: { code: 404, message: 'Operation not found.', status: 'NOT_FOUND' } }, 404);
  });
}

describe('Veo on Vertex AI', () => {
  it('is submitted, polled by name until done and its inline video stored, served and charged for its seconds', async () => {
    // The done operation's shape is the one Vertex documents for a request without storageUri
    // (https://cloud.google.com/vertex-ai/generative-ai/docs/model-reference/veo-video-generation, response body).
    operationReplies({ name: operation, done: true, response: { '@type': 'type.googleapis.com/cloud.ai.large_models.vision.GenerateVideoResponse', raiMediaFilteredCount: 0, videos: [{ bytesBase64Encoded: mp4.toString('base64'), mimeType: 'video/mp4' }] } });
    const created = await client.videos.create({ model: 'veo-vertex', prompt: 'a cat on a piano', seconds: '4', size: '1280x720' });
    const { video } = await pollUntilDone(client, created.id);
    expect(video.status).toBe('completed');

    const [submit, ...polls] = vertex.accepted;
    expect(submit?.request.path).toBe(`/v1/projects/${project}/locations/${location}/publishers/google/models/${model}:predictLongRunning`);
    expect(submit?.body).toMatchObject({ instances: [{ prompt: 'a cat on a piano' }], parameters: { aspectRatio: '16:9', durationSeconds: 4 } });
    expect(polls.length).toBeGreaterThanOrEqual(2);
    expect(polls.every((poll) => poll.method === 'fetchPredictOperation')).toBe(true);

    const bytes = Buffer.from(await (await client.videos.downloadContent(created.id)).arrayBuffer());
    expect(bytes.equals(mp4)).toBe(true);
    const probed = await ffprobe(bytes);
    expect(Math.abs(probed.durationSeconds - 4)).toBeLessThan(0.1);
    expect(probed).toMatchObject({ width: 320, height: 180 });
    await gateway.services.ledger.flush();
    const entries = (await gateway.services.storage.ledger.list({ limit: 100 })).filter((entry) => entry.model === 'veo-vertex');
    expect(entries).toMatchObject([{ provider: 'vertex', videoSeconds: 4, costNanoUsd: 1_600_000_000n }]);
  });

  it('fails the recorded Vertex operation whose samples were all filtered, with its reason', async () => {
    const filtered = JSON.parse(readFixture('google/veo/observed-image-router-41.vertex-operation-rai-filtered.json')) as Record<string, unknown>;
    operationReplies({ ...filtered, name: operation });
    const created = await client.videos.create({ model: 'veo-vertex', prompt: 'something filtered', seconds: '4', size: '1280x720' });
    const { video } = await pollUntilDone(client, created.id);

    expect(video.status).toBe('failed');
    expect(video.error).toMatchObject({ code: 'content_filtered', message: expect.stringContaining('Veo could not generate 1 videos') as string });
  });
});
