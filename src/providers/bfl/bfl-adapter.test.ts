import { describe, expect, it } from 'vitest';
import { readJsonFixture } from '../../../test/support/fixtures.js';
import { GatewayError } from '../../errors/gateway-error.js';
import type { ImageGenerationRequest, SubmittedImageJob } from '../../ir/index.js';
import type { ImageJobs, UpstreamTarget } from '../provider-adapter.js';
import { bflAdapter } from './bfl-adapter.js';

const jobs = (bflAdapter.images as { jobs: ImageJobs }).jobs;

function request(overrides: Partial<ImageGenerationRequest> = {}): ImageGenerationRequest {
  return { prompt: 'ein fantastisches bild', n: 1, partialImages: 0, ...overrides };
}

function target(overrides: Partial<UpstreamTarget> = {}): UpstreamTarget {
  return { providerName: 'bfl', kind: 'bfl', baseUrl: 'https://api.bfl.ai', apiKey: 'bfl-secret', model: 'flux-pro-1.1', ...overrides };
}

function body(call: { body?: string | Buffer }): Record<string, unknown> {
  return JSON.parse(String(call.body)) as Record<string, unknown>;
}

function thrown(run: () => unknown): GatewayError {
  try {
    run();
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error('expected a GatewayError');
}

const png = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]);

describe('BFL: the submit', () => {
  it('posts the documented fields of FLUX1.1 [pro] to /v1/{model} with the key in x-key', () => {
    const call = jobs.buildSubmit(request({ size: '1024x768', outputFormat: 'jpeg' }), target());
    expect(call).toMatchObject({ method: 'POST', url: 'https://api.bfl.ai/v1/flux-pro-1.1', headers: { 'x-key': 'bfl-secret', 'content-type': 'application/json' } });
    const documented = readJsonFixture('bfl/flux-pro-1.1.submit-request.json') as Record<string, unknown>;
    const sent = body(call);
    expect(sent).toEqual({ prompt: 'ein fantastisches bild', width: 1024, height: 768, output_format: 'jpeg' });
    // Every field sent is one the documented request has, with the same type.
    for (const [field, value] of Object.entries(sent)) expect(typeof value).toBe(typeof documented[field]);
  });

  it('asks PNG unless JPEG is asked, as the Images API answers PNG by default', () => {
    expect(body(jobs.buildSubmit(request(), target()))).toEqual({ prompt: 'ein fantastisches bild', output_format: 'png' });
  });

  it('sends Kontext and Ultra the aspect ratio of the size asked, and an edit its image as base64', () => {
    const kontext = body(jobs.buildSubmit(request({ size: '1392x752', inputImages: [{ bytes: png, mediaType: 'image/png', filename: 'a.png' }] }), target({ model: 'flux-kontext-pro' })));
    expect(kontext).toEqual({ prompt: 'ein fantastisches bild', aspect_ratio: '16:9', input_image: Buffer.from(png).toString('base64'), output_format: 'png' });
    expect(body(jobs.buildSubmit(request({ size: '2048x2048' }), target({ model: 'flux-pro-1.1-ultra' })))).toMatchObject({ aspect_ratio: '1:1' });
    expect(body(jobs.buildSubmit(request({ size: 'auto' }), target({ model: 'flux-kontext-max' })))).not.toHaveProperty('aspect_ratio');
  });

  it('numbers the FLUX.2 reference images input_image, input_image_2, …', () => {
    const image = { bytes: png, mediaType: 'image/png', filename: 'a.png' };
    const sent = body(jobs.buildSubmit(request({ size: '1024x1024', inputImages: [image, image, image] }), target({ model: 'flux-2-pro' })));
    expect(Object.keys(sent).filter((field) => field.startsWith('input_image'))).toEqual(['input_image', 'input_image_2', 'input_image_3']);
    expect(sent).toMatchObject({ width: 1024, height: 1024 });
  });

  it('refuses a mask, which BFL does not take', () => {
    const image = { bytes: png, mediaType: 'image/png', filename: 'a.png' };
    expect(thrown(() => jobs.buildSubmit(request({ inputImages: [image], mask: image }), target({ model: 'flux-kontext-pro' })))).toMatchObject({ code: 'unsupported_parameter', param: 'mask' });
  });

  it('reads the id, the polling URL as given and the billed megapixels of the documented answer', () => {
    expect(jobs.decodeSubmit(readJsonFixture('bfl/submit-response.with-cost.json'), target())).toEqual({ upstreamJobId: 'req-123', pollUrl: 'https://api.example.com/poll', billedMegapixels: '2' });
    // The reference page prints placeholders: without a usable polling URL the task is asked for on the root.
    expect(jobs.decodeSubmit(readJsonFixture('bfl/flux-pro-1.1.submit-response.json'), target())).toEqual({
      upstreamJobId: '<string>',
      pollUrl: 'https://api.bfl.ai/v1/get_result?id=%3Cstring%3E',
      billedMegapixels: '123',
    });
  });
});

describe('BFL: polling', () => {
  const job: SubmittedImageJob = { upstreamJobId: 'task-1', pollUrl: 'https://api.eu1.bfl.ai/v1/get_result?id=task-1' };

  it('polls the polling URL as given, on a regional host, with the key; never hands the key to another host', () => {
    expect(jobs.buildPoll(job, target())).toEqual({ method: 'GET', url: 'https://api.eu1.bfl.ai/v1/get_result?id=task-1', headers: { 'x-key': 'bfl-secret' } });
    expect(jobs.buildPoll({ ...job, pollUrl: 'https://elsewhere.example/v1/get_result?id=task-1' }, target()).headers).toEqual({});
    expect(jobs.buildPoll({ ...job, pollUrl: 'http://127.0.0.1:9/eu1/v1/get_result?id=task-1' }, target({ baseUrl: 'http://127.0.0.1:9' })).headers).toEqual({ 'x-key': 'bfl-secret' });
  });

  it('keeps polling while pending, and reads the sample URL of a ready task (status or the older state)', () => {
    expect(jobs.decodePoll(readJsonFixture('bfl/get-result.pending.json'), job)).toEqual({ status: 'pending' });
    expect(jobs.decodePoll(readJsonFixture('bfl/get-result.ready.json'), job)).toEqual({ status: 'ready', imageUrls: ['https://api.example.com/image.png'] });
    expect(jobs.decodePoll(readJsonFixture('bfl/get-result.ready-state.json'), job)).toEqual({ status: 'ready', imageUrls: ['https://api.example.com/image.png'] });
  });

  it('ends a moderated task as a content-policy refusal with its reasons, and a failed or lost one as an upstream error', () => {
    expect(thrown(() => jobs.decodePoll(readJsonFixture('bfl/get-result.content-moderated.json'), job))).toMatchObject({
      status: 400,
      upstreamType: 'content_policy_violation',
      message: expect.stringContaining('Derivative Works'),
    });
    expect(thrown(() => jobs.decodePoll(readJsonFixture('bfl/get-result.request-moderated.json'), job))).toMatchObject({ status: 400, upstreamType: 'content_policy_violation' });
    expect(thrown(() => jobs.decodePoll(readJsonFixture('bfl/get-result.error.json'), job))).toMatchObject({ code: 'upstream_error', status: 502 });
    expect(thrown(() => jobs.decodePoll(readJsonFixture('bfl/get-result.task-not-found.json'), job))).toMatchObject({ code: 'upstream_error' });
    expect(thrown(() => jobs.decodePoll({ status: 'Ready', result: null }, job))).toMatchObject({ code: 'upstream_invalid_response' });
  });
});

describe('BFL: errors', () => {
  it('maps 402 (no credits) to a 502 the operator must fix, 429 (active tasks) to a retryable rate limit, 422 to the client', () => {
    expect(bflAdapter.decodeError(402, JSON.stringify({ detail: 'Insufficient credits' }), {})).toMatchObject({ status: 502, upstreamStatus: 402, upstreamType: 'insufficient_credits' });
    expect(bflAdapter.decodeError(429, JSON.stringify({ detail: 'Too many active tasks' }), { 'retry-after': '3' })).toMatchObject({ code: 'upstream_rate_limited', status: 429, retryable: true, retryAfterSeconds: 3 });
    const invalid = bflAdapter.decodeError(422, JSON.stringify(readJsonFixture('bfl/validation-error.json')), {});
    expect(invalid).toMatchObject({ code: 'upstream_client_error', status: 422, message: 'BFL upstream error: Input should be less than or equal to 1440' });
  });
});
