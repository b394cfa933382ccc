import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ScriptedUpstream, startScriptedUpstream } from '../support/scripted-upstream/index.js';
import { readFixture } from '../support/fixtures.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { insertApiKey } from '../support/insert-api-key.js';

/**
 * Image requests the gateway must refuse before any upstream sees them, for generations (JSON)
 * and edits (multipart): each answer has its exact status and `param`, lists the allowed values
 * where a value was not allowed, and leaves the fake upstream behind the model untouched and the
 * ledger empty.
 */

const bodyLimit = 48 * 1024;
const maxInputImageBytes = 4 * 1024;

let upstream: ScriptedUpstream;
let gateway: TestGateway;
let secret: string;
let smallPng: Buffer;
let largePng: Buffer;

beforeAll(async () => {
  upstream = await startScriptedUpstream();
  upstream.reply({ body: readFixture('openai/images/openai-image-edit.json') });
  gateway = await startTestGateway({
    server: { body_limit_bytes: bodyLimit },
    providers: { fake: { type: 'openai', base_url: `${upstream.url}/v1`, api_key: 'upstream-secret' } },
    models: [
      {
        id: 'fake-image',
        output_modality: 'image',
        legacy_aliases: ['dall-e-3'],
        routes: [{ provider: 'fake', model: 'gpt-image-1' }],
        image: {
          sizes: ['1024x1024', '1536x1024'],
          qualities: ['low', 'high'],
          max_n: 2,
          response_formats: ['b64_json'],
          output_formats: ['png', 'webp'],
          backgrounds: ['opaque'],
          styles: [],
          edits: true,
          max_prompt_length: 100,
          max_input_images: 2,
          max_input_image_bytes: maxInputImageBytes,
        },
        price: { effective_from: '2026-01-01', per_image: { 'low/1024x1024': '0.01', 'high/1024x1024': '0.1', 'high/1536x1024': '0.2', 'low/1536x1024': '0.02' } },
      },
    ],
  });
  secret = await insertApiKey(gateway.services.storage, 'images');
  smallPng = await sharp({ create: { width: 8, height: 8, channels: 3, background: { r: 1, g: 2, b: 3 } } }).png().toBuffer();
  // Noise does not compress: a picture well over the per-image limit but under the body limit.
  const noise = Buffer.alloc(48 * 48 * 3);
  for (let index = 0; index < noise.length; index++) noise[index] = (index * 7919) % 251;
  largePng = await sharp(noise, { raw: { width: 48, height: 48, channels: 3 } }).png({ compressionLevel: 0 }).toBuffer();
});
afterAll(async () => {
  await gateway.close();
  await upstream.close();
});
beforeEach(() => {
  upstream.requests.length = 0;
});

function authorised(headers: Record<string, string> = {}): Record<string, string> {
  return { authorization: `Bearer ${secret}`, ...headers };
}

interface Refusal {
  readonly status: number;
  readonly param: string | null;
  readonly code?: string;
  /** Values the message must list (each quoted), in order. */
  readonly allowed?: readonly string[];
  readonly mentions?: string;
}

/** The refusal as expected, nothing sent upstream, nothing in the ledger. */
async function expectRefused(response: Response, refusal: Refusal): Promise<string> {
  const text = await response.text();
  expect(response.status, text).toBe(refusal.status);
  const requestId = response.headers.get('x-request-id');
  expect(requestId).toMatch(/^req_[0-9a-f]{24}$/);
  const body = JSON.parse(text) as { error: { message: string; type: string; param: string | null; code: string; request_id: string } };
  expect(body.error.param).toBe(refusal.param);
  expect(body.error.request_id).toBe(requestId);
  if (refusal.code !== undefined) expect(body.error.code).toBe(refusal.code);
  if (refusal.allowed !== undefined) expect(body.error.message).toContain(refusal.allowed.map((value) => `'${value}'`).join(', '));
  if (refusal.mentions !== undefined) expect(body.error.message).toContain(refusal.mentions);
  expect(upstream.requests).toEqual([]);
  await gateway.services.ledger.flush();
  expect(await gateway.services.storage.ledger.list({ limit: 10 })).toEqual([]);
  return body.error.message;
}

function generate(fields: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${gateway.url}/v1/images/generations`, {
    method: 'POST',
    headers: authorised({ 'content-type': 'application/json', ...headers }),
    body: typeof fields === 'string' ? fields : JSON.stringify(fields),
  });
}

function edit(fields: Record<string, unknown>, images: readonly Buffer[] = [smallPng], mask?: Buffer): Promise<Response> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, String(value));
  for (const [index, image] of images.entries()) form.append(images.length === 1 ? 'image' : 'image[]', new Blob([new Uint8Array(image)], { type: 'image/png' }), `input-${index}.png`);
  if (mask !== undefined) form.append('mask', new Blob([new Uint8Array(mask)], { type: 'image/png' }), 'mask.png');
  return fetch(`${gateway.url}/v1/images/edits`, { method: 'POST', headers: authorised(), body: form });
}

const base = { model: 'fake-image', prompt: 'a lantern' };

/** Refusals that read the same whether the fields come as JSON or as a form. */
const sharedCases: readonly (readonly [string, Record<string, unknown>, Refusal])[] = [
  ['wrong type for n', { ...base, n: 'two' }, { status: 400, param: 'n' }],
  ['missing prompt', { model: 'fake-image' }, { status: 400, param: 'prompt' }],
  ['unknown parameter', { ...base, colour: 'red' }, { status: 400, param: 'colour', code: 'unknown_parameter' }],
  ['unknown model', { ...base, model: 'no-such-image-model' }, { status: 404, param: 'model', code: 'model_not_found' }],
  ['n over max_n', { ...base, n: 3 }, { status: 400, param: 'n', mentions: '1 to 2' }],
  ['legacy dall-e-3 with n 2', { ...base, model: 'dall-e-3', n: 2 }, { status: 400, param: 'n', mentions: "The model 'dall-e-3' makes 1 image per request." }],
  ['legacy dall-e-3 quality outside its own rules', { ...base, model: 'dall-e-3', quality: 'high' }, { status: 400, param: 'quality', allowed: ['standard', 'hd'] }],
  ['legacy dall-e-3 style outside its own rules', { ...base, model: 'dall-e-3', style: 'bright' }, { status: 400, param: 'style', allowed: ['vivid', 'natural'] }],
  ['size not allowed', { ...base, size: '1024x1536' }, { status: 400, param: 'size', allowed: ['1024x1024', '1536x1024'] }],
  ['quality not allowed', { ...base, quality: 'medium' }, { status: 400, param: 'quality', allowed: ['low', 'high'] }],
  ['response_format not allowed', { ...base, response_format: 'url' }, { status: 400, param: 'response_format', allowed: ['b64_json'] }],
  ['output_format not allowed', { ...base, output_format: 'jpeg' }, { status: 400, param: 'output_format', allowed: ['png', 'webp'] }],
  ['background not allowed', { ...base, background: 'transparent' }, { status: 400, param: 'background', allowed: ['opaque'] }],
  ['style on a model without styles', { ...base, style: 'vivid' }, { status: 400, param: 'style' }],
  ['prompt over the length limit', { ...base, prompt: 'x'.repeat(101) }, { status: 400, param: 'prompt', mentions: '100' }],
];

describe('POST /v1/images/generations refuses', () => {
  it.each(sharedCases)('%s', async (_name, fields, refusal) => {
    await expectRefused(await generate(fields), refusal);
  });

  it('malformed JSON', async () => {
    await expectRefused(await generate('{"model": "fake-image", "prompt": '), { status: 400, param: null, code: 'invalid_json' });
  });

  it('a prompt that is not a string', async () => {
    await expectRefused(await generate({ ...base, prompt: 5 }), { status: 400, param: 'prompt' });
  });

  it('a body that is not an object', async () => {
    await expectRefused(await generate('["a lantern"]'), { status: 400, param: null });
  });

  it('a body over server.body_limit_bytes', async () => {
    await expectRefused(await generate({ ...base, user: 'u'.repeat(bodyLimit) }), { status: 413, param: null });
  });

  it('text/plain', async () => {
    await expectRefused(await generate(base, { 'content-type': 'text/plain' }), { status: 415, param: null });
  });

  it('a multipart form', async () => {
    const form = new FormData();
    form.append('prompt', 'a lantern');
    const response = await fetch(`${gateway.url}/v1/images/generations`, { method: 'POST', headers: authorised(), body: form });
    await expectRefused(response, { status: 415, param: null });
  });
});

describe('POST /v1/images/edits refuses', () => {
  it.each(sharedCases)('%s', async (_name, fields, refusal) => {
    await expectRefused(await edit(fields), refusal);
  });

  it('a malformed multipart body', async () => {
    const response = await fetch(`${gateway.url}/v1/images/edits`, {
      method: 'POST',
      headers: authorised({ 'content-type': 'multipart/form-data; boundary=xyz' }),
      body: '--xyz\r\ncontent-disposition: form-data; name="prompt"\r\n\r\nunfinished',
    });
    await expectRefused(response, { status: 400, param: null });
  });

  it('a multipart body without its boundary', async () => {
    const response = await fetch(`${gateway.url}/v1/images/edits`, { method: 'POST', headers: authorised({ 'content-type': 'multipart/form-data' }), body: 'prompt=x' });
    await expectRefused(response, { status: 400, param: null });
  });

  it('no image', async () => {
    await expectRefused(await edit(base, []), { status: 400, param: 'image', code: 'missing_field' });
  });

  it('a legacy alias whose model never edited', async () => {
    await expectRefused(await edit({ ...base, model: 'dall-e-3' }), { status: 400, param: 'model', mentions: "'dall-e-3' does not edit" });
  });

  it('more images than the model edits at once', async () => {
    await expectRefused(await edit(base, [smallPng, smallPng, smallPng]), { status: 400, param: 'image', mentions: 'at most 2' });
  });

  it('an image over the per-image byte limit', async () => {
    expect(largePng.length).toBeGreaterThan(maxInputImageBytes);
    expect(largePng.length).toBeLessThan(bodyLimit);
    await expectRefused(await edit(base, [smallPng, largePng]), { status: 400, param: 'image', mentions: `at most ${maxInputImageBytes} bytes` });
  });

  it('a mask over the per-image byte limit', async () => {
    await expectRefused(await edit(base, [smallPng], largePng), { status: 400, param: 'mask' });
  });

  it('a body over server.body_limit_bytes', async () => {
    await expectRefused(await edit(base, [Buffer.alloc(bodyLimit + 1, 1)]), { status: 413, param: null });
  });

  it('a JSON body', async () => {
    const response = await fetch(`${gateway.url}/v1/images/edits`, {
      method: 'POST',
      headers: authorised({ 'content-type': 'application/json' }),
      body: JSON.stringify(base),
    });
    await expectRefused(response, { status: 415, param: null });
  });
});

describe.each(['/v1/images/generations', '/v1/images/edits', '/images/generations'])('%s refuses', (path) => {
  it('a request without a key', async () => {
    const response = await fetch(`${gateway.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(base) });
    await expectRefused(response, { status: 401, param: null });
  });

  it('an invalid key', async () => {
    const response = await fetch(`${gateway.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${secret}x` },
      body: JSON.stringify(base),
    });
    await expectRefused(response, { status: 401, param: null });
  });

  it.each(['GET', 'PUT', 'DELETE'])('method %s', async (method) => {
    const response = await fetch(`${gateway.url}${path}`, { method, headers: authorised() });
    expect(response.headers.get('allow') ?? '').toContain('POST');
    await expectRefused(response, { status: 405, param: null });
  });
});

describe('the same model, asked properly', () => {
  it('does reach the fake upstream, so the refusals above were observable', async () => {
    const response = await generate({ ...base, quality: 'high', size: '1024x1024' });
    expect(response.status).toBe(200);
    expect(upstream.requests).toHaveLength(1);
  });
});
