import { describe, expect, it } from 'vitest';
import { readFixture } from '../../../../test/support/fixtures.js';
import type { UpstreamTarget } from '../../provider-adapter.js';
import { replicateAdapter } from '../replicate-adapter.js';
import { replicateVideoGeneration as replicate } from './replicate-video-generation.js';

const target = (model: string): UpstreamTarget => ({ providerName: 'replicate', kind: 'replicate', baseUrl: 'https://api.replicate.com/v1', apiKey: 'r8_secret', model });
const request = { prompt: 'a lighthouse at dusk', mode: 'text-to-video', seconds: 8, size: '1280x720', resolution: '720p', aspectRatio: '16:9' } as const;
const json = (path: string): unknown => JSON.parse(readFixture(`replicate/predictions/${path}`));
const video = 'https://replicate.delivery/xezq/abc/output.mp4';

describe('Replicate video predictions', () => {
  it('creates a prediction on an official model with the model’s own input fields and the Bearer token', () => {
    const call = replicate.buildSubmit(request, target('google/veo-3-fast'));
    expect(call).toMatchObject({ method: 'POST', url: 'https://api.replicate.com/v1/models/google/veo-3-fast/predictions', headers: { authorization: 'Bearer r8_secret' } });
    expect(JSON.parse(String(call.body))).toEqual({ input: { prompt: 'a lighthouse at dusk', aspect_ratio: '16:9', duration: 8, resolution: '720p' } });
  });

  it('creates a prediction on a version at /predictions, still with the model’s map when the version names it', () => {
    const version = 'daad218feb714b03e2a1ac445986aebb9d05243cd00da2af17be2e4049f48f69';
    const image = { bytes: new Uint8Array([1, 2, 3]), mediaType: 'image/png', filename: 'frame.png' };
    const call = replicate.buildSubmit({ ...request, mode: 'image-to-video', seconds: 10, resolution: '1080p', inputReference: image }, target(`kwaivgi/kling-v2.1:${version}`));
    expect(call.url).toBe('https://api.replicate.com/v1/predictions');
    expect(JSON.parse(String(call.body))).toEqual({ version, input: { prompt: 'a lighthouse at dusk', start_image: 'data:image/png;base64,AQID', mode: 'pro', duration: 10 } });
    const bare = replicate.buildSubmit(request, target(version));
    expect(JSON.parse(String(bare.body))).toEqual({ version, input: { prompt: 'a lighthouse at dusk', duration: 8, aspect_ratio: '16:9', resolution: '720p' } });
  });

  it('maps seconds to frames for Wan, and first frames to each family’s field', () => {
    const wan = replicate.buildSubmit({ ...request, seconds: 5, resolution: '480p', size: '832x480' }, target('wan-video/wan-2.2-t2v-fast'));
    expect(JSON.parse(String(wan.body)).input).toMatchObject({ num_frames: 81, frames_per_second: 16, resolution: '480p', aspect_ratio: '16:9' });
    const link = { url: 'https://example.com/first.png' };
    const hailuo = replicate.buildSubmit({ ...request, mode: 'image-to-video', seconds: 6, resolution: '768p', inputReference: link }, target('minimax/hailuo-02'));
    expect(JSON.parse(String(hailuo.body)).input).toEqual({ prompt: 'a lighthouse at dusk', first_frame_image: 'https://example.com/first.png', duration: 6, resolution: '768p' });
    const seedance = replicate.buildSubmit({ ...request, mode: 'image-to-video', seconds: 12, inputReference: link }, target('bytedance/seedance-1-pro'));
    expect(JSON.parse(String(seedance.body)).input).toMatchObject({ image: 'https://example.com/first.png', duration: 12 });
  });

  it('reads the recorded create, poll and cancel answers', () => {
    const submitted = replicate.decodeSubmit(json('sdk-test.create.starting.json'), target('google/veo-3-fast'));
    expect(submitted).toEqual({ upstreamJobId: 'ufawqhfynnddngldkgtslldrkq', state: { status: 'queued' } });
    expect(replicate.buildPoll('ufawqhfynnddngldkgtslldrkq', target('google/veo-3-fast'))).toEqual({
      method: 'GET',
      url: 'https://api.replicate.com/v1/predictions/ufawqhfynnddngldkgtslldrkq',
      headers: { authorization: 'Bearer r8_secret' },
    });
    expect(replicate.decodePoll(json('sdk-test.get.succeeded.json'), {}, target('x/y'))).toEqual({
      status: 'completed',
      downloads: { video: 'https://replicate.com/api/models/stability-ai/stable-diffusion/files/9c3b6fe4-2d37-4571-a17a-83951b1cb120/out-0.png' },
    });
    expect(replicate.decodePoll(json('sdk-test.cancel.canceled.json'), {}, target('x/y'))).toMatchObject({ status: 'failed', error: { code: 'upstream_canceled' } });
    expect(replicate.buildCancel?.('ufawqhfynnddngldkgtslldrkq', target('x/y'))).toMatchObject({ method: 'POST', url: 'https://api.replicate.com/v1/predictions/ufawqhfynnddngldkgtslldrkq/cancel' });
  });

  it('ends processing, single-URI, aborted, refused and emptied predictions as the job needs', () => {
    const base = { id: 'p1', status: 'processing' };
    expect(replicate.decodePoll(base, {}, target('x/y'))).toEqual({ status: 'in_progress' });
    const logs = 'Generating video...\n 20%|██        | 10/50 [00:02<00:08]\n 46%|████▌     | 23/50 [00:05<00:06]';
    expect(replicate.decodePoll({ ...base, logs }, {}, target('x/y'))).toEqual({ status: 'in_progress', progress: 46 });
    expect(replicate.decodePoll({ ...base, status: 'succeeded', output: video }, {}, target('x/y'))).toEqual({ status: 'completed', downloads: { video } });
    expect(replicate.decodePoll({ ...base, status: 'aborted' }, {}, target('x/y'))).toMatchObject({ status: 'failed', error: { code: 'upstream_aborted' } });
    expect(replicate.decodePoll({ ...base, status: 'failed', error: 'NSFW content detected. Try a different prompt.' }, {}, target('x/y'))).toEqual({
      status: 'failed',
      error: { code: 'content_filtered', message: 'NSFW content detected. Try a different prompt.' },
    });
    expect(replicate.decodePoll({ ...base, status: 'failed', error: 'CUDA out of memory' }, {}, target('x/y'))).toMatchObject({ status: 'failed', error: { code: 'upstream_failed' } });
    expect(replicate.decodePoll({ ...base, status: 'succeeded', output: null, data_removed: true }, {}, target('x/y'))).toMatchObject({ status: 'failed', error: { code: 'upstream_output_removed' } });
    expect(() => replicate.decodePoll({ id: 'p1', status: 'queued' }, {}, target('x/y'))).toThrow(/not a prediction/);
  });

  it('maps Replicate’s problem details: 422 stays the client’s, 402 is the gateway’s account, 429 keeps its wait', () => {
    const invalid = replicateAdapter.decodeError(422, readFixture('replicate/predictions/observed-getting-started-nextjs-125.error-422.json'), {});
    expect(invalid).toMatchObject({ status: 422, code: 'upstream_client_error', retryable: false });
    expect(invalid.message).toContain('Invalid version or not permitted');
    const billing = replicateAdapter.decodeError(402, readFixture('replicate/predictions/observed-replicate-javascript-342.error-402.json'), {});
    expect(billing).toMatchObject({ status: 502, code: 'upstream_error', retryable: true });
    expect(billing.message).toContain('Billing required');
    const busy = replicateAdapter.decodeError(429, readFixture('replicate/predictions/sdk-test.error-429.json'), { 'retry-after': '1' });
    expect(busy).toMatchObject({ status: 429, code: 'upstream_rate_limited', retryAfterSeconds: 1 });
    expect(replicateAdapter.decodeError(400, readFixture('replicate/predictions/sdk-test.error-400.json'), {}).message).toContain('Invalid input');
  });

  it('knows the documented variants of its built-in models and refuses what their inputs cannot ask for', () => {
    expect(replicate.knownModel?.('kwaivgi/kling-v2.1')?.variants.every((variant) => variant.mode === 'image-to-video')).toBe(true);
    expect(replicate.knownModel?.('some-one/their-model')).toBeUndefined();
    const refusal = (model: string, variant: object) => replicate.checkRoute?.(target(model), [{ mode: 'text-to-video', resolution: '720p', aspectRatio: '16:9', size: '1280x720', seconds: [8], ...variant }])[0]?.message;
    expect(refusal('google/veo-3-fast', {})).toBeUndefined();
    expect(refusal('google/veo-3-fast', { seconds: [4, 8] })).toMatch(/not 4/);
    expect(refusal('kwaivgi/kling-v2.1', { seconds: [5] })).toMatch(/cannot be asked for text-to-video/);
    expect(refusal('wan-video/wan-2.2-t2v-fast', { resolution: '480p', seconds: [5], size: '854x480' })).toMatch(/832x480/);
    expect(refusal('some-one/their-model', { resolution: '4320p' })).toBeUndefined();
    expect(refusal('not a model', {})).toMatch(/neither owner\/name/);
  });
});
