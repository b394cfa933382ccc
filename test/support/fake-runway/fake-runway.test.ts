import RunwayML, { AuthenticationError, BadRequestError, NotFoundError, TaskFailedError } from '@runwayml/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ffprobe } from '../ffprobe.js';
import { readFixtureBytes } from '../fixtures.js';
import { startFakeRunway, type FakeRunway } from './index.js';

/**
 * The fake Runway is driven with Runway's own SDK (`@runwayml/sdk`, pointed at it with `baseURL`),
 * so what the gateway's tests meet is what the SDK sends and reads: its bearer key and version
 * header, its submit bodies, the task union it parses, its polling helper and its delete.
 */

let runway: FakeRunway;
let client: RunwayML;

beforeAll(async () => {
  runway = await startFakeRunway();
  client = new RunwayML({ apiKey: runway.apiKey, baseURL: runway.url, maxRetries: 0, timeout: 10_000 });
});
afterAll(async () => {
  await runway.close();
});

/** The statuses of successive retrieves until the task is no longer pending, throttled or running. */
async function retrieveUntilDone(id: string): Promise<{ statuses: string[]; progress: number[]; last: RunwayML.TaskRetrieveResponse }> {
  const statuses: string[] = [];
  const progress: number[] = [];
  for (let poll = 0; poll < 20; poll++) {
    const task = await client.tasks.retrieve(id);
    statuses.push(task.status);
    if (task.status === 'RUNNING') progress.push(task.progress);
    if (!['PENDING', 'THROTTLED', 'RUNNING'].includes(task.status)) return { statuses, progress, last: task };
  }
  throw new Error(`task ${id} never finished`);
}

describe('the fake Runway, driven by @runwayml/sdk', () => {
  it('runs a text-to-video task through its states to an output URL with a real MP4 that later expires', async () => {
    const created = await client.textToVideo.create({ model: 'gen4.5', promptText: 'A timelapse on a sunny day with clouds flying by', ratio: '1280:720', duration: 5 });
    expect(created.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.estimatedCost.credits).toBe(60);

    const { statuses, progress, last } = await retrieveUntilDone(created.id);
    expect(statuses).toEqual(['PENDING', 'THROTTLED', 'RUNNING', 'RUNNING', 'SUCCEEDED']);
    expect(progress.every((fraction) => fraction > 0 && fraction < 1)).toBe(true);
    if (last.status !== 'SUCCEEDED') throw new Error(last.status);
    const outputUrl = last.output[0] ?? '';
    expect(new URL(outputUrl).origin).not.toBe(new URL(runway.url).origin);

    const download = await fetch(outputUrl);
    expect(download.status).toBe(200);
    const probed = await ffprobe(Buffer.from(await download.arrayBuffer()));
    expect(probed).toMatchObject({ codec: 'h264', width: 1280, height: 720 });
    expect(Math.abs(probed.durationSeconds - 5)).toBeLessThan(0.1);

    runway.advance(25 * 60 * 60 * 1000);
    expect((await fetch(outputUrl)).status).toBe(403);
    const fresh = await client.tasks.retrieve(created.id);
    if (fresh.status !== 'SUCCEEDED') throw new Error(fresh.status);
    expect((await fetch(fresh.output[0] ?? '')).status).toBe(200);

    const sent = runway.calls.find((call) => call.path === '/v1/text_to_video');
    expect(sent?.headers['x-runway-version']).toBe('2024-11-06');
    expect(sent?.headers.authorization).toBe(`Bearer ${runway.apiKey}`);
  });

  it('takes an image-to-video task with the first frame as a data URI, and waits for it with the SDK helper', async () => {
    const quick = await startFakeRunway({ steps: [] });
    try {
      const sdk = new RunwayML({ apiKey: quick.apiKey, baseURL: quick.url, maxRetries: 0 });
      const frame = readFixtureBytes('runway/first-frame-64x36.png');
      const promptImage = `data:image/png;base64,${frame.toString('base64')}`;
      const task = await sdk.imageToVideo.create({ model: 'gen4_turbo', promptImage, promptText: 'the bunny is eating a carrot', ratio: '960:960', duration: 5 }).waitForTaskOutput();
      expect(task.status).toBe('SUCCEEDED');
      expect(quick.tasks.get(task.id)?.body).toMatchObject({ promptImage, ratio: '960:960' });
    } finally {
      await quick.close();
    }
  });

  it('cancels a running task with tasks.delete, after which it reads as CANCELLED', async () => {
    runway.plan({ kind: 'keep-running' });
    const created = await client.textToVideo.create({ model: 'veo3.1', promptText: 'a slow pan over a harbour', ratio: '1920:1080', duration: 8 });
    await client.tasks.retrieve(created.id);
    await client.tasks.delete(created.id);
    expect((await client.tasks.retrieve(created.id)).status).toBe('CANCELLED');
  });

  it('fails a task with Runway failure code, which the SDK helper raises', async () => {
    const quick = await startFakeRunway({ steps: [] });
    try {
      const sdk = new RunwayML({ apiKey: quick.apiKey, baseURL: quick.url, maxRetries: 0 });
      quick.plan({ kind: 'fail', failure: 'The prompt did not pass moderation.', failureCode: 'SAFETY.INPUT.TEXT' });
      const waiting = sdk.textToVideo.create({ model: 'gen4.5', promptText: 'something refused', ratio: '720:1280', duration: 2 }).waitForTaskOutput();
      const error = await waiting.catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(TaskFailedError);
      expect((error as TaskFailedError).taskDetails).toMatchObject({ status: 'FAILED', failureCode: 'SAFETY.INPUT.TEXT' });
    } finally {
      await quick.close();
    }
  });

  it('refuses an unknown API version, a wrong key, a ratio the model does not take and an unknown task', async () => {
    const oldVersion = new RunwayML({ apiKey: runway.apiKey, baseURL: runway.url, maxRetries: 0, runwayVersion: '2020-01-01' });
    await expect(oldVersion.tasks.retrieve('x')).rejects.toBeInstanceOf(BadRequestError);
    const wrongKey = new RunwayML({ apiKey: 'key_wrong', baseURL: runway.url, maxRetries: 0 });
    await expect(wrongKey.tasks.retrieve('x')).rejects.toBeInstanceOf(AuthenticationError);
    await expect(client.textToVideo.create({ model: 'gen4.5', promptText: 'x', ratio: '960:960' as '1280:720', duration: 5 })).rejects.toBeInstanceOf(BadRequestError);
    await expect(client.tasks.retrieve('00000000-0000-0000-0000-000000000000')).rejects.toBeInstanceOf(NotFoundError);
    const submits = runway.tasks.size;
    const missing = await fetch(`${runway.url}/v1/text_to_video`, {
      method: 'POST',
      headers: { authorization: `Bearer ${runway.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gen4.5', promptText: 'x', ratio: '1280:720', duration: 5 }),
    });
    expect(missing.status).toBe(400);
    expect(runway.tasks.size).toBe(submits);
  });
});
