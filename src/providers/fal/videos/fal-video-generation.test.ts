import { describe, expect, it } from 'vitest';
import { readJsonFixture } from '../../../../test/support/fixtures.js';
import type { UpstreamTarget } from '../../provider-adapter.js';
import { falVideoGeneration } from './fal-video-generation.js';

const target: UpstreamTarget = { providerName: 'fal', kind: 'fal', baseUrl: 'https://queue.fal.run', apiKey: 'fal-key', model: 'fal-ai/fast-sdxl' };
const queued = 'fal-ai/fast-sdxl/requests/80e732af-660e-45cd-bd63-580e4f2a94cc';
const result = falVideoGeneration.result;

describe('fal\'s queue, as the videos capability reads it', () => {
  it('keeps the documented submit answer\'s request by its path below the queue root, and calls it there with the key', () => {
    const submitted = falVideoGeneration.decodeSubmit(readJsonFixture('fal/queue/submit-in-queue.json'), target);
    expect(submitted.upstreamJobId).toBe(queued);
    expect(falVideoGeneration.buildPoll(queued, target)).toMatchObject({ method: 'GET', url: `https://queue.fal.run/${queued}/status?logs=1`, headers: { authorization: 'Key fal-key' } });
    expect(falVideoGeneration.buildCancel?.(queued, target)).toMatchObject({ method: 'PUT', url: `https://queue.fal.run/${queued}/cancel` });
    expect(result?.build(queued, target)).toMatchObject({ method: 'GET', url: `https://queue.fal.run/${queued}` });
  });

  it('finds the request\'s path below a root that has one (a proxy, the simulator), and never calls the host an answer names', () => {
    const proxied = { ...target, baseUrl: 'http://127.0.0.1:9/fal' };
    const answer = { request_id: 'r1', response_url: 'http://elsewhere.example/fal/fal-ai/fast-sdxl/requests/r1' };
    expect(falVideoGeneration.decodeSubmit(answer, proxied).upstreamJobId).toBe('fal-ai/fast-sdxl/requests/r1');
    expect(falVideoGeneration.decodeSubmit({ request_id: 'r2' }, { ...target, model: 'fal-ai/kling-video/v2.1/master/text-to-video' }).upstreamJobId).toBe('fal-ai/kling-video/requests/r2');
  });

  it('reads the documented statuses: queued at 0 %, running at the logged percentage, completed as finished', () => {
    expect(falVideoGeneration.decodePoll(readJsonFixture('fal/queue/status-in-queue.json'), {}, target)).toEqual({ status: 'queued', progress: 0 });
    expect(falVideoGeneration.decodePoll(readJsonFixture('fal/queue/status-in-progress.json'), {}, target)).toEqual({ status: 'in_progress', progress: 40 });
    expect(falVideoGeneration.decodePoll(readJsonFixture('fal/queue/status-completed.litellm.json'), {}, target)).toEqual({ status: 'finished' });
    // LiteLLM's test of a completed status carrying the request's error (the same test file).
    expect(falVideoGeneration.decodePoll({ request_id: 'abc', status: 'COMPLETED', error: 'generation failed' }, {}, target)).toEqual({ status: 'failed', error: { code: 'upstream_failed', message: 'generation failed' } });
  });

  it('reads a result: the video\'s link, a content-policy refusal, an input the runner could not fetch, a result not ready', () => {
    expect(result?.decode(200, readJsonFixture('fal/results/kling-video-output.json'), target)).toEqual({ status: 'completed', downloads: { video: 'https://v3b.fal.media/files/b/0a84de68/jXDWywjhagRfR-GuZjoRs_video.mp4' } });
    expect(result?.decode(422, readJsonFixture('fal/errors/content-policy-violation.litellm.json'), target)).toEqual({
      status: 'failed',
      error: { code: 'content_filtered', message: 'image_urls: The images or videos provided may contain likenesses of real people or other private information that cannot be processed.' },
    });
    expect(result?.decode(422, readJsonFixture('fal/errors/file-download-error.litellm.json'), target)).toMatchObject({ status: 'failed', error: { code: 'file_download_error' } });
    expect(result?.decode(400, readJsonFixture('fal/errors/still-in-progress.litellm.json'), target)).toEqual({ status: 'in_progress' });
    expect(result?.decode(200, { error: 'generation failed' }, target)).toEqual({ status: 'failed', error: { code: 'upstream_failed', message: 'generation failed' } });
  });

  it('submits the endpoint\'s own fields from its built-in map', () => {
    const kling = { ...target, model: 'fal-ai/kling-video/v2.1/master/text-to-video' };
    const call = falVideoGeneration.buildSubmit({ prompt: 'a fox', mode: 'text-to-video', seconds: 10, size: '1080x1920', resolution: '1080p', aspectRatio: '9:16' }, kling);
    expect(call.url).toBe('https://queue.fal.run/fal-ai/kling-video/v2.1/master/text-to-video');
    expect(JSON.parse(call.body as string)).toEqual({ prompt: 'a fox', duration: '10', aspect_ratio: '9:16' });
  });
});
