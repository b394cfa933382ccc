import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJsonFixture } from '../fixtures.js';
import { startFakeMiniMax, type FakeMiniMax } from './fake-minimax.js';

/**
 * MiniMax publishes no SDK for video, so the fake is held to MiniMax's documented answers
 * (test/fixtures/minimax/video, provenance in its README): driven over plain HTTP as MiniMax's own
 * MCP server drives the API (MiniMax-AI/MiniMax-MCP-JS, src/api/video.ts: submit, query until
 * `Success`, retrieve the file, fetch its link), every answer has the documented members with the
 * documented types.
 */
let fake: FakeMiniMax;
const bearer = { authorization: 'Bearer minimax-key' };

beforeAll(async () => {
  fake = await startFakeMiniMax({ queriesUntilDone: 2 });
});
afterAll(async () => {
  await fake.close();
});

/** The members and value types of a JSON value, recursively: what a client's decoder relies on. */
function shapeOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shapeOf);
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b)).map(([key, member]) => [key, shapeOf(member)]));
  return typeof value;
}

async function call(path: string, init: RequestInit = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${fake.url}${path}`, { ...init, headers: { ...bearer, 'content-type': 'application/json', ...(init.headers as Record<string, string> | undefined) } });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const submit = (body: Record<string, unknown>) => call('/v1/video_generation', { method: 'POST', body: JSON.stringify(body) });

describe('the fake MiniMax, against MiniMax’s documented answers', () => {
  it('answers submit, query, file retrieval and download in the documented shapes', async () => {
    const submitted = await submit({ model: 'MiniMax-Hailuo-02', prompt: 'A kitten plays with yarn [Pan left]', duration: 6, resolution: '768P' });
    expect(submitted.status).toBe(200);
    expect(shapeOf(submitted.body)).toEqual(shapeOf(readJsonFixture('minimax/video/platform-video-generation.submit.json')));

    const taskId = String(submitted.body.task_id);
    const queried = [];
    for (let attempt = 0; attempt < 5; attempt++) {
      const answer = await call(`/v1/query/video_generation?task_id=${taskId}`, { method: 'GET' });
      queried.push(answer.body);
      if (answer.body.status === 'Success') break;
    }
    expect(queried.map((answer) => answer.status)).toEqual(['Preparing', 'Queueing', 'Success']);
    expect(shapeOf(queried[1])).toEqual(shapeOf(readJsonFixture('minimax/video/reconstructed-query.processing.json')));
    expect(shapeOf(queried[2])).toEqual(shapeOf(readJsonFixture('minimax/video/platform-query.success.json')));
    expect(queried[2]).toMatchObject({ video_width: 1366, video_height: 768 });

    const retrieved = await call(`/v1/files/retrieve?file_id=${String(queried[2]?.file_id)}`, { method: 'GET' });
    expect(shapeOf(retrieved.body)).toEqual(shapeOf(readJsonFixture('minimax/video/observed-files-retrieve.cdn.json')));
    const link = String((retrieved.body.file as Record<string, unknown>).download_url);
    expect(new URL(link).origin).not.toBe(new URL(fake.url).origin);
    const video = await fetch(link);
    expect(video.status).toBe(200);
    expect(video.headers.get('content-type')).toBe('video/mp4');
  });

  it('refuses with HTTP 200 and a non-zero status code, as MiniMax does', async () => {
    const wrongKey = await call('/v1/video_generation', { method: 'POST', body: '{}', headers: { authorization: 'Bearer wrong' } });
    expect(wrongKey.status).toBe(200);
    expect(shapeOf(wrongKey.body)).toEqual(shapeOf(readJsonFixture('minimax/video/reconstructed-error-1004.json')));
    expect(wrongKey.body).toMatchObject({ base_resp: { status_code: 1004 } });

    fake.balanceExhausted = true;
    const poor = await submit({ model: 'MiniMax-Hailuo-02', prompt: 'x', duration: 6, resolution: '768P' });
    fake.balanceExhausted = false;
    expect(poor.body).toEqual(readJsonFixture('minimax/video/reconstructed-submit.error-1008.json'));

    expect((await submit({ model: 'MiniMax-Hailuo-02', prompt: 'SENSITIVE-INPUT', duration: 6, resolution: '768P' })).body).toMatchObject({ base_resp: { status_code: 1026 } });
    // 10 seconds only at 768P; 512P only from a first frame.
    expect((await submit({ model: 'MiniMax-Hailuo-02', prompt: 'x', duration: 10, resolution: '1080P' })).body).toMatchObject({ base_resp: { status_code: 2013 } });
    expect((await submit({ model: 'MiniMax-Hailuo-02', prompt: 'x', duration: 6, resolution: '512P' })).body).toMatchObject({ base_resp: { status_code: 2013 } });
  });

  it('fails a withheld video with 1027 in the query’s own shape', async () => {
    const submitted = await submit({ model: 'MiniMax-Hailuo-02', prompt: 'SENSITIVE-OUTPUT', duration: 6, resolution: '768P' });
    let answer = await call(`/v1/query/video_generation?task_id=${String(submitted.body.task_id)}`, { method: 'GET' });
    while (answer.body.status !== 'Fail') answer = await call(`/v1/query/video_generation?task_id=${String(submitted.body.task_id)}`, { method: 'GET' });
    expect(shapeOf(answer.body)).toEqual(shapeOf(readJsonFixture('minimax/video/reconstructed-query.fail-1027.json')));
  });

  it('lets a download link expire: the storage refuses it, a new retrieval signs a fresh one', async () => {
    const submitted = await submit({ model: 'MiniMax-Hailuo-02', prompt: 'a lighthouse', duration: 6, resolution: '1080P' });
    let answer = await call(`/v1/query/video_generation?task_id=${String(submitted.body.task_id)}`, { method: 'GET' });
    while (answer.body.status !== 'Success') answer = await call(`/v1/query/video_generation?task_id=${String(submitted.body.task_id)}`, { method: 'GET' });
    const retrieve = () => call(`/v1/files/retrieve?file_id=${String(answer.body.file_id)}`, { method: 'GET' }).then((found) => String((found.body.file as Record<string, unknown>).download_url));
    const first = await retrieve();
    fake.advance(61_000);
    const expired = await fetch(first);
    expect(expired.status).toBe(403);
    expect(await expired.text()).toContain('Request has expired.');
    expect((await fetch(await retrieve())).status).toBe(200);
    const tampered = new URL(first);
    tampered.searchParams.set('Expires', String(Number(tampered.searchParams.get('Expires')) + 86_400));
    expect((await fetch(tampered)).status).toBe(403);
  });
});
