import { ApiError, ValidationError, createFalClient } from '@fal-ai/client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readFixtureBytes, readJsonFixture } from '../fixtures.js';
import { startFakeFal, type FakeFal } from './fake-fal.js';

/**
 * The fake fal driven by fal's own SDK (`@fal-ai/client`), which has no base-URL option: its
 * `fetch` option carries every call it builds for `https://queue.fal.run` to the fake instead, so
 * the SDK's paths, methods, headers and readings of the answers are what the fake meets.
 */
const endpoint = 'fal-ai/kling-video/v2.1/master/text-to-video';
const mp4 = readFixtureBytes('generated/upstream-video-320x180-4s.mp4');
let fal: FakeFal;

beforeAll(async () => {
  fal = await startFakeFal({ fileLifetimeMs: 60_000 });
});
afterAll(async () => {
  await fal.close();
});
beforeEach(() => {
  fal.plan = () => ({ queuedPolls: 2, runningPolls: 1, outcome: { video: mp4 } });
});

function sdk(credentials = fal.key) {
  const toFake: typeof fetch = (input, init) => {
    const target = typeof input === 'string' ? input : input instanceof URL ? input.toString() : input.url;
    return fetch(target.replace('https://queue.fal.run', fal.url), init);
  };
  return createFalClient({ credentials, fetch: toFake });
}

describe('the fake fal, driven by @fal-ai/client', () => {
  it('queues a request, reports its position and progress, and serves its result with the key the SDK sends', async () => {
    const client = sdk();
    const submitted = await client.queue.submit(endpoint, { input: { prompt: 'a red fox', duration: '5', aspect_ratio: '16:9' } });
    expect(submitted).toMatchObject({ status: 'IN_QUEUE', request_id: expect.any(String) as string, queue_position: 2 });
    const statuses = [];
    for (let poll = 0; poll < 4; poll++) statuses.push(await client.queue.status(endpoint, { requestId: submitted.request_id, logs: true }));
    expect(statuses.map((status) => status.status)).toEqual(['IN_QUEUE', 'IN_QUEUE', 'IN_PROGRESS', 'COMPLETED']);
    expect(statuses.map((status) => ('queue_position' in status ? status.queue_position : undefined)).slice(0, 2)).toEqual([1, 0]);
    expect(statuses[2]).toMatchObject({ logs: [{ message: expect.stringMatching(/\d+%/) as string }] });

    const result = await client.queue.result(endpoint, { requestId: submitted.request_id });
    expect(result.requestId).toBe(submitted.request_id);
    const video = (result.data as { video: { url: string } }).video;
    expect(new URL(video.url).origin).toBe(fal.cdnUrl);
    expect(Buffer.from(await (await fetch(video.url)).arrayBuffer()).equals(mp4)).toBe(true);

    const queueCalls = fal.calls.filter((call) => call.path.includes(submitted.request_id) || call.method === 'POST');
    expect(queueCalls.every((call) => call.headers.authorization === `Key ${fal.key}`)).toBe(true);
    expect(fal.calls.at(-1)?.path).toBe(`/fal-ai/kling-video/requests/${submitted.request_id}`);
  });

  it('runs a whole request through subscribe', async () => {
    const result = await sdk().subscribe(endpoint, { input: { prompt: 'waves', duration: '10' }, pollInterval: 10 });
    expect(result.data).toMatchObject({ video: { url: expect.stringContaining('/output.mp4') as string, content_type: 'video/mp4' } });
  });

  it('answers a request the runner refused as fal does: a 422 from the result, which the SDK raises as a ValidationError', async () => {
    fal.plan = () => ({ queuedPolls: 0, runningPolls: 0, outcome: { status: 422, body: readJsonFixture('fal/errors/content-policy-violation.litellm.json') } });
    const client = sdk();
    const { request_id: requestId } = await client.queue.submit(endpoint, { input: { prompt: 'a famous face' } });
    expect((await client.queue.status(endpoint, { requestId })).status).toBe('COMPLETED');
    const failure = await client.queue.result(endpoint, { requestId }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ValidationError);
    expect((failure as ValidationError).fieldErrors).toMatchObject([{ type: 'content_policy_violation', loc: ['body', 'image_urls'] }]);
  });

  it('refuses input its endpoint does not take (a duration as a number) when the result is read', async () => {
    const client = sdk();
    const { request_id: requestId } = await client.queue.submit(endpoint, { input: { prompt: 'a fox', duration: 5 } as unknown as { prompt: string } });
    for (let poll = 0; poll < 4; poll++) await client.queue.status(endpoint, { requestId });
    const failure = await client.queue.result(endpoint, { requestId }).catch((error: unknown) => error);
    expect((failure as ValidationError).fieldErrors).toMatchObject([{ loc: ['body', 'duration'], type: 'string_type' }]);
  });

  it('answers the result before completion with "still in progress", and cancels a queued request with PUT', async () => {
    const client = sdk();
    const { request_id: requestId } = await client.queue.submit(endpoint, { input: { prompt: 'slow' } });
    const early = await client.queue.result(endpoint, { requestId }).catch((error: unknown) => error);
    expect(early).toMatchObject({ status: 400, body: readJsonFixture('fal/errors/still-in-progress.litellm.json') });

    await client.queue.cancel(endpoint, { requestId });
    expect(fal.calls.at(-1)).toMatchObject({ method: 'PUT', path: `/fal-ai/kling-video/requests/${requestId}/cancel` });
    expect(fal.requests.get(requestId)?.state).toBe('cancelled');
    expect((await client.queue.status(endpoint, { requestId })).status).toBe('COMPLETED');
    expect(await client.queue.result(endpoint, { requestId }).catch((error: unknown) => error)).toBeInstanceOf(ApiError);
  });

  it('refuses a wrong key', async () => {
    const failure = await sdk('not-the-key').queue.submit(endpoint, { input: { prompt: 'x' } }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError<unknown>).status).toBe(401);
  });

  it('deletes an output file a minute after its request completed, by its own clock', async () => {
    const client = sdk();
    const result = await client.subscribe(endpoint, { input: { prompt: 'expiring' }, pollInterval: 10 });
    const url = (result.data as { video: { url: string } }).video.url;
    expect((await fetch(url)).status).toBe(200);
    fal.clock.advance(61_000);
    expect((await fetch(url)).status).toBe(404);
  });
});
