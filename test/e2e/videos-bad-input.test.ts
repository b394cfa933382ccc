import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ScriptedUpstream, startScriptedUpstream } from '../support/scripted-upstream/index.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { insertApiKey } from '../support/insert-api-key.js';
import { quickVideoSettings, temporaryContentDirectory } from '../support/video-jobs.js';

/**
 * Video submits the gateway must refuse before any upstream sees them, as JSON and as the
 * multipart form the `openai` SDK sends: each answer has its status, `param` and OpenAI error
 * shape, and leaves the fake upstream untouched, no job recorded and the ledger empty.
 */

const bodyLimit = 64 * 1024;
const maxReferenceBytes = 2 * 1024;

let upstream: ScriptedUpstream;
let gateway: TestGateway;
let secret: string;
let imagesOnlySecret: string;
let smallPng: Buffer;
let largePng: Buffer;

beforeAll(async () => {
  upstream = await startScriptedUpstream();
  upstream.reply({ status: 500, body: '{"error":{"message":"must not be called"}}' });
  gateway = await startTestGateway({
    server: { body_limit_bytes: bodyLimit },
    content: { dir: temporaryContentDirectory() },
    videos: quickVideoSettings,
    providers: { fake: { type: 'openai', base_url: `${upstream.url}/v1`, api_key: 'upstream-secret' } },
    models: [
      {
        id: 'clip',
        output_modality: 'video',
        routes: [{ provider: 'fake', model: 'clip-upstream' }],
        video: {
          variants: [
            { mode: 'text-to-video', resolution: '720p', aspect_ratio: '16:9', seconds: [4, 8], usd_per_second: '0.10' },
            { mode: 'image-to-video', resolution: '720p', aspect_ratio: '16:9', seconds: [4], usd_per_second: '0.12' },
            { mode: 'text-to-video', resolution: '1080p', aspect_ratio: '16:9', seconds: [8] },
          ],
          max_input_reference_bytes: maxReferenceBytes,
        },
        price: { effective_from: '2026-01-01' },
      },
      { id: 'chat-only', routes: [{ provider: 'fake', model: 'gpt' }], price: { input_per_mtok: '1', output_per_mtok: '1' } },
    ],
  });
  secret = await insertApiKey(gateway.services.storage, 'videos');
  imagesOnlySecret = await insertApiKey(gateway.services.storage, 'images only', { endpoints: ['images'], models: null });
  smallPng = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#123456' } }).png().toBuffer();
  const noise = Buffer.alloc(40 * 40 * 3);
  for (let index = 0; index < noise.length; index++) noise[index] = (index * 7919) % 251;
  largePng = await sharp(noise, { raw: { width: 40, height: 40, channels: 3 } }).png({ compressionLevel: 0 }).toBuffer();
});
afterAll(async () => {
  await gateway.close();
  await upstream.close();
});
beforeEach(() => {
  upstream.requests.length = 0;
});

interface Refusal {
  readonly status: number;
  readonly param?: string | null;
  readonly code?: string;
  readonly mentions?: readonly string[];
}

/** The refusal in the OpenAI shape, nothing sent upstream, no job, nothing in the ledger. */
async function expectRefused(response: Response, refusal: Refusal): Promise<void> {
  const text = await response.text();
  expect(response.status, text).toBe(refusal.status);
  const body = JSON.parse(text) as { error: { message: string; type: string; param: string | null; code: string } };
  expect(body.error.message).toBeTruthy();
  if (refusal.param !== undefined) expect(body.error.param).toBe(refusal.param);
  if (refusal.code !== undefined) expect(body.error.code).toBe(refusal.code);
  for (const mention of refusal.mentions ?? []) expect(body.error.message).toContain(mention);
  expect(upstream.requests).toEqual([]);
  await gateway.services.ledger.flush();
  expect(await gateway.services.storage.ledger.list({ limit: 10 })).toEqual([]);
  const key = await gateway.services.storage.keys.findByHash((await import('../../src/keys/api-key-secret.js')).hashApiKey(secret));
  expect((await gateway.services.storage.videoJobs.list({ keyId: key?.id ?? null, limit: 10, order: 'desc' })).jobs).toEqual([]);
}

function submitJson(fields: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${gateway.url}/v1/videos`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json', ...headers },
    body: typeof fields === 'string' ? fields : JSON.stringify(fields),
  });
}

function submitForm(fields: Record<string, unknown>, reference?: Buffer): Promise<Response> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, String(value));
  if (reference !== undefined) form.append('input_reference', new Blob([new Uint8Array(reference)], { type: 'image/png' }), 'frame.png');
  return fetch(`${gateway.url}/v1/videos`, { method: 'POST', headers: { authorization: `Bearer ${secret}` }, body: form });
}

const base = { model: 'clip', prompt: 'a quiet harbour' };
const sold = 'text-to-video 720p 16:9 (1280x720) for 4/8 s';

const sharedCases: readonly (readonly [string, Record<string, unknown>, Refusal])[] = [
  ['an unsold variant (1080p has no price)', { ...base, size: '1920x1080', seconds: '8' }, { status: 400, param: 'size', mentions: [sold] }],
  ['a resolution not sold', { ...base, resolution: '480p' }, { status: 400, param: 'resolution', mentions: [sold] }],
  ['seconds the variant does not make', { ...base, seconds: '6', size: '1280x720' }, { status: 400, param: 'seconds', mentions: ['4, 8 seconds'] }],
  ['seconds that are not a number', { ...base, seconds: 'six' }, { status: 400, param: 'seconds' }],
  ['a size that is not WIDTHxHEIGHT', { ...base, size: 'large' }, { status: 400, param: 'size' }],
  ['a size no variant has', { ...base, size: '1000x1000' }, { status: 400, param: 'size', mentions: [sold] }],
  ['an unknown model', { ...base, model: 'no-such-video-model' }, { status: 404, param: 'model', code: 'model_not_found' }],
  ['a text model', { ...base, model: 'chat-only' }, { status: 404, param: 'model', code: 'model_not_found' }],
  ['a missing prompt', { model: 'clip' }, { status: 400, param: 'prompt' }],
  ['an unknown parameter', { ...base, fps: '60' }, { status: 400, param: 'fps', code: 'unknown_parameter' }],
  ['image-to-video without a reference', { ...base, mode: 'image-to-video' }, { status: 400, param: 'input_reference' }],
  ['an unknown mode', { ...base, mode: 'video-to-video' }, { status: 400, param: 'mode' }],
];

describe('POST /v1/videos refuses', () => {
  it.each(sharedCases)('as JSON: %s', async (_name, fields, refusal) => {
    await expectRefused(await submitJson(fields), refusal);
  });

  it.each(sharedCases)('as a form: %s', async (_name, fields, refusal) => {
    await expectRefused(await submitForm(fields), refusal);
  });

  it('an input_reference over the model limit, naming it', async () => {
    expect(largePng.length).toBeGreaterThan(maxReferenceBytes);
    await expectRefused(await submitForm({ ...base, seconds: '4' }, largePng), { status: 400, param: 'input_reference', mentions: [String(maxReferenceBytes)] });
  });

  it('image-to-video at a length its variant does not make', async () => {
    await expectRefused(await submitForm({ ...base, seconds: '8' }, smallPng), { status: 400, param: 'seconds', mentions: ['image-to-video'] });
  });

  it('an input_reference that is not an image', async () => {
    await expectRefused(await submitForm({ ...base, seconds: '4' }, Buffer.from('not an image at all')), { status: 400, param: 'input_reference' });
  });

  it('an input_reference data URL over the limit, sent as JSON', async () => {
    const url = `data:image/png;base64,${largePng.toString('base64')}`;
    await expectRefused(await submitJson({ ...base, seconds: 4, input_reference: { image_url: url } }), { status: 400, param: 'input_reference' });
  });

  it('a body over body_limit_bytes with 413', async () => {
    await expectRefused(await submitJson({ ...base, prompt: 'x'.repeat(bodyLimit + 10) }), { status: 413 });
    await expectRefused(await submitForm({ ...base }, Buffer.alloc(bodyLimit + 10, 1)), { status: 413 });
  });

  it('a wrong content type with 415', async () => {
    await expectRefused(await submitJson(JSON.stringify(base), { 'content-type': 'text/plain' }), { status: 415 });
  });

  it('malformed JSON', async () => {
    await expectRefused(await submitJson('{"model": "clip", "prompt": '), { status: 400 });
  });

  it('a missing or wrong key with 401, a key without the videos scope with 403', async () => {
    const anonymous = await fetch(`${gateway.url}/v1/videos`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(base) });
    await expectRefused(anonymous, { status: 401 });
    await expectRefused(await submitJson(base, { authorization: 'Bearer sy-not-a-real-key' }), { status: 401 });
    await expectRefused(await submitJson(base, { authorization: `Bearer ${imagesOnlySecret}` }), { status: 403 });
  });

  it('a bad Idempotency-Key header', async () => {
    await expectRefused(await submitJson({ ...base, seconds: '4' }, { 'idempotency-key': ' ' }), { status: 400 });
  });
});

describe('the other video paths refuse', () => {
  it('an unknown job id with 404, and a bad list query with 400', async () => {
    const headers = { authorization: `Bearer ${secret}` };
    await expectRefused(await fetch(`${gateway.url}/v1/videos/video_doesnotexist`, { headers }), { status: 404 });
    await expectRefused(await fetch(`${gateway.url}/v1/videos/video_doesnotexist/content`, { headers }), { status: 404 });
    await expectRefused(await fetch(`${gateway.url}/v1/videos?limit=0`, { headers }), { status: 400, param: 'limit' });
    await expectRefused(await fetch(`${gateway.url}/v1/videos?limit=101`, { headers }), { status: 400, param: 'limit' });
    await expectRefused(await fetch(`${gateway.url}/v1/videos?order=sideways`, { headers }), { status: 400, param: 'order' });
  });

  it('videos without the /v1 prefix with 404, and a wrong method with 405', async () => {
    const headers = { authorization: `Bearer ${secret}`, 'content-type': 'application/json' };
    await expectRefused(await fetch(`${gateway.url}/videos`, { method: 'POST', headers, body: JSON.stringify(base) }), { status: 404 });
    await expectRefused(await fetch(`${gateway.url}/v1/videos`, { method: 'PUT', headers, body: '{}' }), { status: 405 });
  });
});
