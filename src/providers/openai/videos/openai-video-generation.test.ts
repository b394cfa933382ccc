import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../errors/gateway-error.js';
import { readFixture } from '../../../../test/support/fixtures.js';
import type { UpstreamTarget } from '../../provider-adapter.js';
import { openAIVideoGeneration as videos } from './openai-video-generation.js';

const target: UpstreamTarget = { providerName: 'videos', kind: 'openai-compatible', baseUrl: 'http://videos.test/v1', apiKey: 'secret', model: 'sora-2', headers: { 'x-extra': '1' } };
const request = { prompt: 'aurora', mode: 'text-to-video', seconds: 8, size: '1280x720', resolution: '720p', aspectRatio: '16:9' } as const;

describe('the OpenAI Videos API', () => {
  it('submits JSON with seconds as a string, or a form when the first frame is bytes', () => {
    const json = videos.buildSubmit(request, target);
    expect(json).toMatchObject({ method: 'POST', url: 'http://videos.test/v1/videos', headers: { authorization: 'Bearer secret', 'content-type': 'application/json', 'x-extra': '1' } });
    expect(JSON.parse(String(json.body))).toEqual({ model: 'sora-2', prompt: 'aurora', seconds: '8', size: '1280x720' });
    const linked = videos.buildSubmit({ ...request, inputReference: { url: 'https://example.com/a.png' } }, target);
    expect(JSON.parse(String(linked.body)).input_reference).toEqual({ image_url: 'https://example.com/a.png' });
    const form = videos.buildSubmit({ ...request, mode: 'image-to-video', inputReference: { bytes: new Uint8Array([1, 2, 3]), mediaType: 'image/png', filename: 'f.png' } }, target);
    expect(form.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    const text = (form.body as Buffer).toString('latin1');
    expect(text).toContain('name="seconds"\r\n\r\n8\r\n');
    expect(text).toContain('name="input_reference"; filename="f.png"\r\nContent-Type: image/png');
  });

  it('reads the recorded job states', () => {
    const queued = readFixture('openai/videos/observed-one-api-readme.queued.json');
    expect(videos.decodeSubmit(JSON.parse(queued), target).upstreamJobId).toBe('video_691608967fe8819399e710799dae2ae708872b008b63ff61');
    expect(videos.decodePoll(JSON.parse(queued), { 'retry-after': '3' }, target)).toEqual({ status: 'queued', progress: 0, pollAfterMs: 3000 });
    const done = videos.decodePoll(JSON.parse(readFixture('openai/videos/observed-one-api-readme.completed.json')), {}, target);
    expect(done).toEqual({
      status: 'completed',
      seconds: 4,
      downloads: {
        video: 'http://videos.test/v1/videos/video_691611812ca88190bfb123716dcc953a089a232f54b02b21/content',
        thumbnail: 'http://videos.test/v1/videos/video_691611812ca88190bfb123716dcc953a089a232f54b02b21/content?variant=thumbnail',
      },
    });
    expect(videos.decodePoll({ id: 'v', status: 'failed', error: { code: 'moderation_blocked', message: 'no' } }, {}, target)).toEqual({ status: 'failed', error: { code: 'moderation_blocked', message: 'no' } });
    expect(videos.decodePoll({ id: 'v', status: 'rendering', progress: 250 }, {}, target)).toEqual({ status: 'in_progress', progress: 100 });
    expect(() => videos.decodePoll({ data: [] }, {}, target)).toThrow(GatewayError);
  });

  it('polls, cancels and remixes without a body on GET and DELETE', () => {
    expect(videos.buildPoll('video_1', target)).toEqual({ method: 'GET', url: 'http://videos.test/v1/videos/video_1', headers: { authorization: 'Bearer secret', 'x-extra': '1' } });
    expect(videos.buildCancel?.('video_1', target)).toMatchObject({ method: 'DELETE', url: 'http://videos.test/v1/videos/video_1' });
    const remix = videos.buildRemix?.('video_1', 'again', target);
    expect(remix).toMatchObject({ method: 'POST', url: 'http://videos.test/v1/videos/video_1/remix', body: '{"prompt":"again"}' });
    expect(videos.decodeSubmit(JSON.parse(readFixture('openai/videos/spec-example.remix.response.json')), target).upstreamJobId).toBe('video_456');
  });
});
