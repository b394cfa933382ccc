import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../errors/gateway-error.js';
import { readFixture, readJsonFixture } from '../../../../test/support/fixtures.js';
import type { UpstreamTarget } from '../../provider-adapter.js';
import { miniMaxAdapter } from '../minimax-adapter.js';
import { hailuoVideoGeneration as hailuo } from './hailuo-video-generation.js';

const target: UpstreamTarget = { providerName: 'minimax', kind: 'minimax', baseUrl: 'https://api.minimax.io', apiKey: 'minimax-key', model: 'MiniMax-Hailuo-02' };
const request = { prompt: 'a kitten [Pan left]', mode: 'text-to-video', seconds: 6, size: '1366x768', resolution: '768p', aspectRatio: '16:9' } as const;
const fixture = (name: string): unknown => readJsonFixture(`minimax/video/${name}`);

describe('Hailuo on MiniMax’s API', () => {
  it('submits the model, prompt, length and resolution with the key as a bearer token', () => {
    const call = hailuo.buildSubmit(request, target);
    expect(call).toMatchObject({ method: 'POST', url: 'https://api.minimax.io/v1/video_generation', headers: { authorization: 'Bearer minimax-key', 'content-type': 'application/json' } });
    expect(JSON.parse(String(call.body))).toEqual({ model: 'MiniMax-Hailuo-02', prompt: 'a kitten [Pan left]', duration: 6, resolution: '768P' });
  });

  it('sends a first frame as a data URI, and a link as it is', () => {
    const bytes = { bytes: new Uint8Array([1, 2, 3]), mediaType: 'image/png', filename: 'frame.png' };
    const inline = JSON.parse(String(hailuo.buildSubmit({ ...request, mode: 'image-to-video', inputReference: bytes }, target).body)) as Record<string, unknown>;
    expect(inline.first_frame_image).toBe('data:image/png;base64,AQID');
    const linked = JSON.parse(String(hailuo.buildSubmit({ ...request, mode: 'image-to-video', inputReference: { url: 'https://example.com/a.jpg' } }, target).body)) as Record<string, unknown>;
    expect(linked.first_frame_image).toBe('https://example.com/a.jpg');
  });

  it('refuses a prompt longer than MiniMax takes before anything is sent', () => {
    expect(() => hailuo.buildSubmit({ ...request, prompt: 'x'.repeat(2001) }, target)).toThrow(expect.objectContaining({ param: 'prompt', status: 400 }));
  });

  it('reads the documented submit, and its refusals answered with HTTP 200', () => {
    expect(hailuo.decodeSubmit(fixture('platform-video-generation.submit.json'), target)).toEqual({ upstreamJobId: '106916112212032' });
    const poor = (() => {
      try {
        hailuo.decodeSubmit(fixture('reconstructed-submit.error-1008.json'), target);
      } catch (error) {
        return error as GatewayError;
      }
      return undefined;
    })();
    expect(poor).toBeInstanceOf(GatewayError);
    expect(poor).toMatchObject({ status: 502, retryable: true, message: expect.stringContaining('insufficient balance') as string });
    expect(() => hailuo.decodeSubmit(fixture('reconstructed-submit.error-1026.json'), target)).toThrow(expect.objectContaining({ status: 400, retryable: false }));
    expect(() => hailuo.decodeSubmit(fixture('reconstructed-error-1004.json'), target)).toThrow(expect.objectContaining({ status: 502 }));
  });

  it('polls the query, then reads a success’s file through the file retrieval', () => {
    expect(hailuo.buildPoll('176843862716480', target)).toEqual({ method: 'GET', url: 'https://api.minimax.io/v1/query/video_generation?task_id=176843862716480', headers: { authorization: 'Bearer minimax-key' } });
    expect(hailuo.decodePoll(fixture('reconstructed-query.processing.json'), {}, target)).toEqual({ status: 'in_progress' });
    expect(hailuo.decodePoll(fixture('platform-query.success.json'), {}, target)).toEqual({ status: 'finished', resultId: '176844028768320' });
    expect(hailuo.decodePoll(fixture('observed-qianfan-query.success.json'), {}, target)).toEqual({ status: 'finished', resultId: '241342648594580' });
    const result = hailuo.result!;
    expect(result.build('176844028768320', target)).toEqual({ method: 'GET', url: 'https://api.minimax.io/v1/files/retrieve?file_id=176844028768320', headers: { authorization: 'Bearer minimax-key' } });
    expect(result.decode(200, fixture('observed-files-retrieve.cdn.json'), target)).toEqual({
      status: 'completed',
      downloads: { video: 'https://video-product.cdn.minimax.io/inference_output/video/2025-09-19/5c06f899-c689-4dfb-93f6-e4468a2743fc/output.mp4' },
    });
    expect(result.decode(200, fixture('platform-files-retrieve.json'), target)).toMatchObject({ status: 'completed' });
    // A refused retrieval (MiniMax's HTTP-200 refusals included) is raised, so the next poll asks again.
    expect(() => result.decode(200, { base_resp: { status_code: 1002, status_msg: 'rate limit' } }, target)).toThrow(expect.objectContaining({ status: 429, retryable: true }));
    expect(() => result.decode(404, { base_resp: { status_code: 1004, status_msg: 'not found' } }, target)).toThrow(GatewayError);
  });

  it('ends a withheld video as content_filtered and a failed task as failed, both with MiniMax’s reason', () => {
    expect(hailuo.decodePoll(fixture('reconstructed-query.fail-1027.json'), {}, target)).toMatchObject({ status: 'failed', error: { code: 'content_filtered', message: expect.stringContaining('output video sensitive') as string } });
    expect(hailuo.decodePoll({ task_id: '1', status: 'Fail', file_id: '', base_resp: { status_code: 0, status_msg: 'success' } }, {}, target)).toMatchObject({ status: 'failed', error: { code: 'upstream_failed' } });
    expect(hailuo.decodePoll({ task_id: '1', status: 'Success', file_id: '', base_resp: { status_code: 0, status_msg: 'success' } }, {}, target)).toMatchObject({ status: 'failed', error: { code: 'upstream_no_output' } });
    // A failed call, not a failed task: raised, so the poll is retried.
    expect(() => hailuo.decodePoll({ base_resp: { status_code: 1002, status_msg: 'rate limit' } }, {}, target)).toThrow(expect.objectContaining({ status: 429, retryable: true }));
  });

  it('says which variants MiniMax cannot make, and knows its models’ variants by id', () => {
    const variant = { mode: 'text-to-video', resolution: '768p', aspectRatio: '16:9', size: '1366x768', seconds: [6, 10] } as const;
    const refusal = (asked: typeof variant | Record<string, unknown>, model: string) => hailuo.checkRoute?.({ ...target, model }, [{ ...variant, ...asked }])[0]?.message;
    expect(refusal(variant, 'MiniMax-Hailuo-02')).toBeUndefined();
    expect(refusal({ resolution: '1080p' }, 'MiniMax-Hailuo-02')).toMatch(/6 seconds only/);
    expect(refusal({ aspectRatio: '9:16' }, 'MiniMax-Hailuo-02')).toMatch(/aspect ratio/);
    expect(refusal({ resolution: '512p' }, 'MiniMax-Hailuo-02')).toMatch(/768p, 1080p only/);
    expect(refusal({ mode: 'image-to-video', resolution: '512p' }, 'MiniMax-Hailuo-02')).toBeUndefined();
    expect(refusal(variant, 'MiniMax-Hailuo-2.3-Fast')).toMatch(/does not make text-to-video/);
    const known = hailuo.knownModel?.('MiniMax-Hailuo-2.3-Fast');
    expect(known?.variants.map((sold) => `${sold.mode} ${sold.resolution} ${sold.size} ${sold.seconds.join('/')}`)).toEqual(['image-to-video 768p 1366x768 6/10', 'image-to-video 1080p 1920x1080 6']);
    expect(hailuo.knownModel?.('MiniMax-Hailuo-99')).toBeUndefined();
  });

  it('reads an error answered with an HTTP error status by its base_resp, else by the status', () => {
    expect(miniMaxAdapter.decodeError(500, readFixture('minimax/video/reconstructed-submit.error-1008.json'), {})).toMatchObject({ status: 502, message: expect.stringContaining('1008') as string });
    expect(miniMaxAdapter.decodeError(503, 'upstream connect error', {})).toMatchObject({ status: 503, retryable: true });
  });
});
