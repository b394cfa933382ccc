import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../errors/gateway-error.js';
import { readFixture } from '../../../../test/support/fixtures.js';
import type { UpstreamTarget } from '../../provider-adapter.js';
import { geminiAdapter } from '../gemini-adapter.js';
import { veoVideoGeneration as veo } from './veo-video-generation.js';

const target: UpstreamTarget = { providerName: 'google', kind: 'gemini', baseUrl: 'https://generativelanguage.googleapis.com', apiKey: 'gemini-key', model: 'veo-3.0-fast-generate-001' };
const request = { prompt: 'a cat', mode: 'text-to-video', seconds: 8, size: '1280x720', resolution: '720p', aspectRatio: '16:9' } as const;
const json = (path: string): unknown => JSON.parse(readFixture(path));

describe('Veo on the Gemini API', () => {
  it('submits predictLongRunning with the key, and a first frame inline', () => {
    const call = veo.buildSubmit({ ...request, mode: 'image-to-video', inputReference: { bytes: new Uint8Array([1, 2]), mediaType: 'image/png', filename: 'f' } }, target);
    expect(call).toMatchObject({ method: 'POST', url: 'https://generativelanguage.googleapis.com/v1beta/models/veo-3.0-fast-generate-001:predictLongRunning', headers: { 'x-goog-api-key': 'gemini-key' } });
    expect(JSON.parse(String(call.body))).toEqual({
      instances: [{ prompt: 'a cat', image: { bytesBase64Encoded: 'AQI=', mimeType: 'image/png' } }],
      parameters: { aspectRatio: '16:9', resolution: '720p', durationSeconds: 8 },
    });
    expect(() => veo.buildSubmit({ ...request, inputReference: { url: 'https://example.com/a.png' } }, target)).toThrow(GatewayError);
  });

  it('polls the recorded operation until done and names the video', () => {
    const submitted = veo.decodeSubmit(json('google/veo/cookbook-veo-rest.predictLongRunning.json'), target);
    expect(submitted.upstreamJobId).toBe('models/veo-3.0-fast-generate-001/operations/321kvdcepmcg');
    const poll = veo.buildPoll(submitted.upstreamJobId, target);
    expect(poll).toEqual({ method: 'GET', url: 'https://generativelanguage.googleapis.com/v1beta/models/veo-3.0-fast-generate-001/operations/321kvdcepmcg', headers: { 'x-goog-api-key': 'gemini-key' } });
    expect(veo.decodePoll(json('google/veo/cookbook-veo-rest.operation-pending.json'), {}, target)).toEqual({ status: 'in_progress' });
    expect(veo.decodePoll(json('google/veo/cookbook-veo-rest.operation-done.json'), {}, target)).toEqual({
      status: 'completed',
      downloads: { video: 'https://generativelanguage.googleapis.com/v1beta/files/qu4d28uipuqh:download?alt=media' },
    });
  });

  it('fails a filtered operation with its reasons, in both recorded shapes', () => {
    const vertex = veo.decodePoll(json('google/veo/observed-image-router-41.vertex-operation-rai-filtered.json'), {}, target);
    expect(vertex).toMatchObject({ status: 'failed', error: { code: 'content_filtered' } });
    const fragment = json('google/veo/observed-js-genai-1272.rai-filtered.generateVideoResponse.fragment.json');
    const gemini = veo.decodePoll({ name: 'op', done: true, response: { generateVideoResponse: fragment } }, {}, target);
    expect(gemini).toMatchObject({ status: 'failed', error: { code: 'content_filtered', message: expect.stringContaining('audio') } });
    expect(veo.decodePoll({ name: 'op', done: true, response: {} }, {}, target)).toMatchObject({ status: 'failed', error: { code: 'upstream_no_output' } });
    expect(veo.decodePoll({ name: 'op', done: true, error: { code: 3, message: 'bad', status: 'INVALID_ARGUMENT' } }, {}, target)).toEqual({ status: 'failed', error: { code: 'invalid_argument', message: 'bad' } });
    expect(() => veo.decodePoll({}, {}, target)).toThrow(GatewayError);
  });

  it('maps the recorded refusal to a 400 with the upstream message', () => {
    const error = geminiAdapter.decodeError(400, readFixture('google/veo/observed-ergon-11.error-400-duration-out-of-bound.json'), {});
    expect(error.status).toBe(400);
    expect(error.message).toContain('durationSeconds');
  });
});
