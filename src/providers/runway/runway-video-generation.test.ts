import { describe, expect, it } from 'vitest';
import { readFixture } from '../../../test/support/fixtures.js';
import { GatewayError } from '../../errors/gateway-error.js';
import type { UpstreamTarget } from '../provider-adapter.js';
import { runwayAdapter } from './runway-adapter.js';
import { runwayDataUriLimit } from './runway-prompt-image.js';

const videos = runwayAdapter.videos!;
const target: UpstreamTarget = { providerName: 'runway', kind: 'runway', baseUrl: 'https://api.dev.runwayml.com', apiKey: 'key_abc', model: 'gen4.5' };
const request = { prompt: 'A timelapse on a sunny day with clouds flying by', mode: 'text-to-video', seconds: 5, size: '1280x720', resolution: '720p', aspectRatio: '16:9' } as const;
const json = (path: string): unknown => JSON.parse(readFixture(path));

describe('Runway video tasks', () => {
  it('submits text to video with the bearer key, the API version, the size as ratio and the length as duration', () => {
    const call = videos.buildSubmit(request, target);
    expect(call).toMatchObject({ method: 'POST', url: 'https://api.dev.runwayml.com/v1/text_to_video', headers: { authorization: 'Bearer key_abc', 'x-runway-version': '2024-11-06' } });
    expect(JSON.parse(String(call.body))).toEqual({ model: 'gen4.5', promptText: request.prompt, ratio: '1280:720', duration: 5 });
  });

  it("builds the documented image-to-video body from a link, and sends the client's bytes as a data URI", () => {
    const documented = json('runway/image-to-video-request.json') as { promptImage: string };
    const linked = videos.buildSubmit({ ...request, mode: 'image-to-video', inputReference: { url: documented.promptImage } }, { ...target, baseUrl: 'https://api.dev.runwayml.com/v1' });
    expect(linked.url).toBe('https://api.dev.runwayml.com/v1/image_to_video');
    expect(JSON.parse(String(linked.body))).toEqual(documented);
    const inline = videos.buildSubmit({ ...request, mode: 'image-to-video', size: '960x960', inputReference: { bytes: new Uint8Array([1, 2]), mediaType: 'image/png', filename: 'f' } }, { ...target, model: 'gen4_turbo' });
    expect(JSON.parse(String(inline.body))).toMatchObject({ model: 'gen4_turbo', promptImage: 'data:image/png;base64,AQI=', ratio: '960:960' });
  });

  it('asks Veo on Runway for its audio, the rate its price is for', () => {
    const call = videos.buildSubmit({ ...request, seconds: 8 }, { ...target, model: 'veo3.1' });
    expect(JSON.parse(String(call.body))).toMatchObject({ model: 'veo3.1', audio: true, duration: 8 });
  });

  it('refuses before sending what Runway would refuse: an image over its data URI limit, a plain-http link, a prompt over 1000 characters', () => {
    const large = new Uint8Array(Math.ceil((runwayDataUriLimit * 3) / 4));
    const refusal = (thunk: () => unknown): GatewayError => {
      try {
        thunk();
      } catch (error) {
        if (error instanceof GatewayError) return error;
      }
      throw new Error('not refused');
    };
    expect(refusal(() => videos.buildSubmit({ ...request, mode: 'image-to-video', inputReference: { bytes: large, mediaType: 'image/png', filename: 'f' } }, target))).toMatchObject({ code: 'invalid_field', param: 'input_reference' });
    expect(refusal(() => videos.buildSubmit({ ...request, mode: 'image-to-video', inputReference: { url: 'http://example.com/a.png' } }, target))).toMatchObject({ param: 'input_reference' });
    expect(refusal(() => videos.buildSubmit({ ...request, prompt: 'x'.repeat(1001) }, target))).toMatchObject({ param: 'prompt' });
  });

  it('reads the task states: queued, running with its fraction as a percent, the output URL, a moderation failure and a cancellation', () => {
    expect(videos.decodeSubmit(json('runway/submit-answer.json'), target)).toMatchObject({ upstreamJobId: '63fd0f13-f29d-4e58-99d3-1cb9efa14a5b' });
    const poll = videos.buildPoll('63fd0f13-f29d-4e58-99d3-1cb9efa14a5b', target);
    expect(poll).toEqual({ method: 'GET', url: 'https://api.dev.runwayml.com/v1/tasks/63fd0f13-f29d-4e58-99d3-1cb9efa14a5b', headers: { authorization: 'Bearer key_abc', 'x-runway-version': '2024-11-06' } });
    expect(videos.decodePoll(json('runway/task-throttled.json'), {}, target)).toMatchObject({ status: 'queued' });
    expect(videos.decodePoll(json('runway/task-running.json'), {}, target)).toMatchObject({ status: 'in_progress', progress: 40 });
    expect(videos.decodePoll(json('runway/task-succeeded.json'), {}, target)).toEqual({ status: 'completed', downloads: { video: 'https://dnznrvs05pmza.cloudfront.net/.../video.mp4?_jwt=...' } });
    const failed = videos.decodePoll(json('runway/task-failed-safety.json'), {}, target);
    expect(failed).toMatchObject({ status: 'failed', error: { code: 'content_filtered', message: expect.stringContaining('SAFETY.INPUT.TEXT') } });
    expect(videos.decodePoll(json('runway/task-cancelled.json'), {}, target)).toMatchObject({ status: 'failed', error: { code: 'cancelled' } });
    expect(() => videos.decodePoll({ status: 'EXPLODED' }, {}, target)).toThrow(GatewayError);
  });

  it('cancels with DELETE on the task', () => {
    expect(videos.buildCancel?.('t-1', target)).toEqual({ method: 'DELETE', url: 'https://api.dev.runwayml.com/v1/tasks/t-1', headers: { authorization: 'Bearer key_abc', 'x-runway-version': '2024-11-06' } });
  });

  it("says which variants Runway's models cannot make, and leaves a model it does not know to Runway", () => {
    const check = (variant: { mode: 'text-to-video' | 'image-to-video'; size: string; seconds: number[] }, on: UpstreamTarget) =>
      videos.checkRoute?.(on, [{ ...variant, resolution: '720p', aspectRatio: '16:9' }])[0]?.message;
    expect(check({ mode: 'text-to-video', size: '1280x720', seconds: [2, 10] }, target)).toBeUndefined();
    expect(check({ mode: 'text-to-video', size: '960x960', seconds: [5] }, target)).toContain('not 960x960');
    expect(check({ mode: 'image-to-video', size: '960x960', seconds: [5] }, target)).toBeUndefined();
    expect(check({ mode: 'image-to-video', size: '1280x720', seconds: [1] }, target)).toContain('not 1');
    expect(check({ mode: 'text-to-video', size: '1280x720', seconds: [5] }, { ...target, model: 'gen4_turbo' })).toContain('no text-to-video');
    expect(check({ mode: 'text-to-video', size: '1920x1080', seconds: [5] }, { ...target, model: 'veo3.1' })).toContain('not 5');
    expect(check({ mode: 'text-to-video', size: '640x640', seconds: [7] }, { ...target, model: 'some-new-model' })).toBeUndefined();
  });

  it("keeps a Runway error's status class and its readable text", () => {
    const error = runwayAdapter.decodeError(400, JSON.stringify({ error: 'Invalid ratio.' }), {});
    expect(error).toMatchObject({ code: 'upstream_client_error', status: 400, message: 'Runway upstream error: Invalid ratio.' });
    expect(runwayAdapter.decodeError(429, '{}', { 'retry-after': '3' })).toMatchObject({ code: 'upstream_rate_limited', retryAfterSeconds: 3 });
  });
});
