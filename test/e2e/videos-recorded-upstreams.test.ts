import OpenAI, { BadRequestError } from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { LedgerEntry } from '../../src/metering/ledger-entry.js';
import { type ReceivedRequest, type ScriptedUpstream, startScriptedUpstream } from '../support/scripted-upstream/index.js';
import { ffprobe } from '../support/ffprobe.js';
import { readFixture, readFixtureBytes } from '../support/fixtures.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { pollUntilDone, quickVideoSettings, temporaryContentDirectory } from '../support/video-jobs.js';

/**
 * Video jobs through the `openai` SDK against fake upstreams that replay recorded answers: an
 * OpenAI-shaped video server, and Veo on the Gemini API (operation, redirecting download, safety
 * filter, refused submit). The finished file is a real MP4 made for the test (no recording holds
 * one), checked by ffprobe after the gateway stored and served it.
 */

const mp4 = readFixtureBytes('generated/upstream-video-320x180-4s.mp4');
const veoOperation = 'models/veo-3.0-fast-generate-001/operations/321kvdcepmcg';

let openaiUpstream: ScriptedUpstream;
let veoUpstream: ScriptedUpstream;
let storage: ScriptedUpstream;
let gateway: TestGateway;
let client: OpenAI;

beforeAll(async () => {
  [openaiUpstream, veoUpstream, storage] = await Promise.all([startScriptedUpstream(), startScriptedUpstream(), startScriptedUpstream()]);
  storage.reply({ contentType: 'video/mp4', body: mp4 });
  const variants = [{ mode: 'text-to-video', resolution: '720p', aspect_ratio: '16:9', seconds: [4, 8], usd_per_second: '0.40' }];
  gateway = await startTestGateway({
    content: { dir: temporaryContentDirectory() },
    videos: quickVideoSettings,
    providers: {
      'openai-videos': { type: 'openai', base_url: `${openaiUpstream.url}/v1`, api_key: 'openai-upstream-secret' },
      'google-videos': { type: 'gemini', base_url: veoUpstream.url, api_key: 'gemini-upstream-secret', headers: { 'x-operator-header': 'operator-value' } },
    },
    models: [
      { id: 'sora-like', output_modality: 'video', routes: [{ provider: 'openai-videos', model: 'sora-2' }], video: { variants }, price: { effective_from: '2026-01-01' } },
      { id: 'veo-fast', output_modality: 'video', routes: [{ provider: 'google-videos', model: 'veo-3.0-fast-generate-001' }], video: { variants }, price: { effective_from: '2026-01-01' } },
    ],
  });
  client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'unused', maxRetries: 0 });
});
afterAll(async () => {
  await gateway.close();
  await Promise.all([openaiUpstream.close(), veoUpstream.close(), storage.close()]);
});
beforeEach(() => {
  for (const upstream of [openaiUpstream, veoUpstream, storage]) upstream.requests.length = 0;
});

async function ledgerEntriesOf(jobId: string): Promise<LedgerEntry[]> {
  return (await gateway.services.storage.ledger.list({ limit: 10_000 })).filter((entry) => entry.requestId === jobId);
}

function pathOf(request: ReceivedRequest): string {
  return request.path.split('?', 1)[0] ?? '';
}

describe('an OpenAI-shaped video upstream', () => {
  it('is submitted, polled and downloaded with its own credential, and charged for the seconds it confirms', async () => {
    const queued = readFixture('openai/videos/observed-one-api-readme.queued.json');
    const upstreamId = (JSON.parse(queued) as { id: string }).id;
    let polls = 0;
    openaiUpstream.reply((request) => {
      if (request.method === 'POST' && pathOf(request) === '/v1/videos') return { body: queued };
      if (request.method === 'GET' && pathOf(request) === `/v1/videos/${upstreamId}`) {
        polls++;
        // The recorded completion is another job of the same shape: its id is the one thing made to match.
        return { body: polls < 2 ? queued : readFixture('openai/videos/observed-one-api-readme.completed.json').replace(/video_[0-9a-f]+/, upstreamId) };
      }
      if (request.method === 'GET' && request.path === `/v1/videos/${upstreamId}/content`) return { contentType: 'video/mp4', body: mp4 };
      return { status: 404, body: '{"error":{"message":"not found","type":"invalid_request_error"}}' };
    });

    const created = await client.videos.create({ model: 'sora-like', prompt: 'aurora', seconds: '4', size: '1280x720' });
    expect(created).toMatchObject({ model: 'sora-like', status: 'queued', seconds: '4', size: '1280x720' });
    expect(created.id).not.toBe(upstreamId);
    const { video } = await pollUntilDone(client, created.id);
    expect(video.status).toBe('completed');
    expect((video as unknown as { usage: unknown }).usage).toEqual({ seconds: 4, cost_usd: '1.60' });

    const creates = openaiUpstream.requests.filter((request) => request.method === 'POST');
    expect(creates).toHaveLength(1);
    expect(creates[0]?.body).toContain('sora-2');
    expect(openaiUpstream.requests.every((request) => request.headers.authorization === 'Bearer openai-upstream-secret')).toBe(true);

    const bytes = Buffer.from(await (await client.videos.downloadContent(created.id)).arrayBuffer());
    expect(bytes.equals(mp4)).toBe(true);
    const probed = await ffprobe(bytes);
    expect(probed).toMatchObject({ width: 320, height: 180 });
    expect(Math.abs(probed.durationSeconds - 4)).toBeLessThan(0.1);
    expect(await ledgerEntriesOf(created.id)).toMatchObject([{ provider: 'openai-videos', upstreamModel: 'sora-2', videoSeconds: 4, costNanoUsd: 1_600_000_000n }]);
  });

  it('answers the list and delete shapes the recordings show', async () => {
    const list = await client.videos.list({ limit: 1 });
    expect(list.data.length).toBe(1);
    const deleted = await client.videos.delete(list.data[0]!.id);
    expect(Object.keys(deleted).sort()).toEqual(Object.keys(JSON.parse(readFixture('openai/videos/docs-example.delete.response.json')) as object).sort());
  });
});

describe('Veo on the Gemini API', () => {
  function veoReplies(done: string): void {
    let polls = 0;
    veoUpstream.reply((request) => {
      if (request.method === 'POST' && pathOf(request) === '/v1beta/models/veo-3.0-fast-generate-001:predictLongRunning') {
        return { body: readFixture('google/veo/cookbook-veo-rest.predictLongRunning.json') };
      }
      if (request.method === 'GET' && pathOf(request) === `/v1beta/${veoOperation}`) {
        polls++;
        return { body: polls < 2 ? readFixture('google/veo/cookbook-veo-rest.operation-pending.json') : done };
      }
      if (request.method === 'GET' && pathOf(request) === '/v1beta/files/qu4d28uipuqh:download') {
        return { status: 302, headers: { location: `${storage.url}/signed/video.mp4?token=abc` } };
      }
      return { status: 404, body: '{"error":{"code":404,"message":"not found","status":"NOT_FOUND"}}' };
    });
  }

  it('is submitted, polled until done and downloaded through its redirect; the key never leaves Google', async () => {
    // The recorded URI is Google's; the fake stands at another origin, so that is the one thing rewritten.
    veoReplies(readFixture('google/veo/cookbook-veo-rest.operation-done.json').replace('https://generativelanguage.googleapis.com', veoUpstream.url));
    const created = await client.videos.create({ model: 'veo-fast', prompt: 'a cat on a piano', seconds: '4', size: '1280x720' });
    const { video, progress } = await pollUntilDone(client, created.id);
    expect(video.status).toBe('completed');
    expect(progress.slice(0, -1).every((value) => value < 100)).toBe(true);

    const submit = veoUpstream.requests.find((request) => request.method === 'POST');
    expect(JSON.parse(submit?.body ?? '{}')).toMatchObject({ instances: [{ prompt: 'a cat on a piano' }], parameters: { aspectRatio: '16:9', durationSeconds: 4 } });
    expect(veoUpstream.requests.every((request) => request.headers['x-goog-api-key'] === 'gemini-upstream-secret')).toBe(true);
    expect(storage.requests).toHaveLength(1);
    expect(storage.requests[0]?.headers['x-goog-api-key']).toBeUndefined();

    const probed = await ffprobe(Buffer.from(await (await client.videos.downloadContent(created.id)).arrayBuffer()));
    expect(Math.abs(probed.durationSeconds - 4)).toBeLessThan(0.1);
    expect(await ledgerEntriesOf(created.id)).toMatchObject([{ provider: 'google-videos', videoSeconds: 4, costNanoUsd: 1_600_000_000n }]);
  });

  it('a link the operation names on another host gets neither the key nor the configured headers', async () => {
    // An upstream's answer may name any host; the provider's credential belongs to its API's origin alone.
    veoReplies(readFixture('google/veo/cookbook-veo-rest.operation-done.json').replace('https://generativelanguage.googleapis.com/v1beta/files/qu4d28uipuqh:download', `${storage.url}/cdn/video.mp4`));
    const created = await client.videos.create({ model: 'veo-fast', prompt: 'a cat on a drum', seconds: '4', size: '1280x720' });
    const { video } = await pollUntilDone(client, created.id);
    expect(video.status).toBe('completed');
    expect(storage.requests.map((request) => request.path)).toEqual(['/cdn/video.mp4?alt=media']);
    expect(storage.requests[0]?.headers['x-goog-api-key']).toBeUndefined();
    expect(storage.requests[0]?.headers['x-operator-header']).toBeUndefined();
    expect(veoUpstream.requests.every((request) => request.headers['x-operator-header'] === 'operator-value')).toBe(true);
    expect(Buffer.from(await (await client.videos.downloadContent(created.id)).arrayBuffer()).equals(mp4)).toBe(true);
  });

  it('a filtered operation fails with the reason and costs nothing', async () => {
    const filtered = JSON.parse(readFixture('google/veo/observed-image-router-41.vertex-operation-rai-filtered.json')) as Record<string, unknown>;
    veoReplies(JSON.stringify({ ...filtered, name: veoOperation }));
    const created = await client.videos.create({ model: 'veo-fast', prompt: 'something filtered', seconds: '4', size: '1280x720' });
    const { video } = await pollUntilDone(client, created.id);
    expect(video.status).toBe('failed');
    expect(video.error?.message).toContain('could not generate');
    expect(await ledgerEntriesOf(created.id)).toMatchObject([{ costNanoUsd: 0n, videoSeconds: 0 }]);
    expect(storage.requests).toHaveLength(0);
  });

  it('a submit the upstream refuses is a 400 with its message, and nothing is charged', async () => {
    veoUpstream.reply({ status: 400, body: readFixture('google/veo/observed-ergon-11.error-400-duration-out-of-bound.json') });
    const refused = await client.videos.create({ model: 'veo-fast', prompt: 'too long', seconds: '8', size: '1280x720' }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(BadRequestError);
    expect((refused as BadRequestError).message).toContain('durationSeconds');
    expect((refused as BadRequestError).message).not.toContain('gemini-upstream-secret');
    await gateway.services.ledger.flush();
    const charged = (await gateway.services.storage.ledger.list({ limit: 10_000 })).filter((entry) => entry.model === 'veo-fast' && entry.status >= 400);
    expect(charged.every((entry) => entry.costNanoUsd === 0n)).toBe(true);
  });
});
