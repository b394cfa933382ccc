import OpenAI, { NotFoundError, PermissionDeniedError } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/default-config.js';
import { ContentSweeper } from '../../src/media/content-store/content-sweeper.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { insertApiKey } from '../support/insert-api-key.js';
import { pollUntilDone, quickVideoSettings, temporaryContentDirectory } from '../support/video-jobs.js';

/**
 * Who sees a job, and how long its content lives: a job is visible only to the key that made it
 * (another key gets the same 404 as for an unknown id), a key without the `videos` scope gets 403,
 * and after `expires_at` the content is 404 `video_expired` and the sweeper removes it.
 */

let gateway: TestGateway;
let owner: OpenAI;
let stranger: OpenAI;
let chatOnly: OpenAI;

beforeAll(async () => {
  gateway = await startTestGateway({ ...defaultConfig({}), videos: quickVideoSettings, content: { dir: temporaryContentDirectory(), video_ttl_seconds: 2 } });
  const client = (secret: string): OpenAI => new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: secret, maxRetries: 0 });
  owner = client(await insertApiKey(gateway.services.storage, 'owner'));
  stranger = client(await insertApiKey(gateway.services.storage, 'stranger'));
  chatOnly = client(await insertApiKey(gateway.services.storage, 'chat only', { endpoints: ['chat'], models: null }));
});
afterAll(async () => {
  await gateway.close();
});

describe('a finished video', () => {
  it('is seen only by its key, and its content expires and is swept', async () => {
    const created = await owner.videos.create({ model: 'sim-video', prompt: 'a short one [video-ms:300]', seconds: '4', size: '1280x720' });
    expect((await pollUntilDone(owner, created.id)).video.status).toBe('completed');

    await expect(stranger.videos.retrieve(created.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(stranger.videos.downloadContent(created.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(stranger.videos.delete(created.id)).rejects.toBeInstanceOf(NotFoundError);
    expect((await stranger.videos.list()).data.map((video) => video.id)).not.toContain(created.id);
    await expect(chatOnly.videos.retrieve(created.id)).rejects.toBeInstanceOf(PermissionDeniedError);
    expect((await owner.videos.list()).data.map((video) => video.id)).toContain(created.id);

    const job = await owner.videos.retrieve(created.id);
    expect(job.expires_at).not.toBeNull();
    expect((await owner.videos.downloadContent(created.id)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, (job.expires_at ?? 0) * 1000 - Date.now()) + 1_100));

    const expired = await fetch(`${gateway.url}/v1/videos/${created.id}/content`, { headers: { authorization: `Bearer ${owner.apiKey}` } });
    expect(expired.status).toBe(404);
    expect(((await expired.json()) as { error: { code: string } }).error.code).toBe('video_expired');

    const removed = await new ContentSweeper(gateway.services.contentStore, { intervalSeconds: 60 }, gateway.services.logger).sweepOnce(new Date());
    expect(removed).toEqual(expect.arrayContaining([`videos/${created.id}/video`, `videos/${created.id}/thumbnail`]));
    expect(await gateway.services.contentStore.get(`videos/${created.id}/video`)).toBeUndefined();
  });
});

describe('a job past its deadline', () => {
  it('fails with a clear error and costs nothing', async () => {
    const strict = await startTestGateway({ ...defaultConfig({}), videos: { ...quickVideoSettings, deadline_seconds: 1 }, content: { dir: temporaryContentDirectory() } });
    try {
      const client = new OpenAI({ baseURL: `${strict.url}/v1`, apiKey: 'unused', maxRetries: 0 });
      const created = await client.videos.create({ model: 'sim-video', prompt: 'too slow [video-ms:20000]', seconds: '4', size: '1280x720' });
      const { video } = await pollUntilDone(client, created.id);
      expect(video.status).toBe('failed');
      expect(video.error).toMatchObject({ code: 'deadline_exceeded', message: expect.stringContaining('1 seconds') });
      const entries = (await strict.services.storage.ledger.list({})).filter((entry) => entry.requestId === created.id);
      expect(entries).toMatchObject([{ costNanoUsd: 0n, videoSeconds: 0, status: 504 }]);
    } finally {
      await strict.close();
    }
  });
});
