import OpenAI, { APIError, toFile } from 'openai';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { LedgerEntry } from '../../src/metering/ledger-entry.js';
import { type ReceivedRequest, type ScriptedUpstream, startScriptedUpstream } from '../support/scripted-upstream/index.js';
import { readFixture } from '../support/fixtures.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { recordedBodyWithPictures, type GeneratedPicture } from '../support/recorded-image-bodies.js';

/**
 * Recorded image answers of OpenAI, OpenAI-compatible servers, Imagen and Gemini, replayed by a
 * fake upstream behind each provider kind and fetched with the `openai` SDK. The recorders cut
 * the image bytes, so real pictures stand in for them (test/support/recorded-image-bodies.ts):
 * each answer must carry exactly those pictures, and each upstream must have been asked in its
 * own dialect.
 */

let upstream: ScriptedUpstream;
let gateway: TestGateway;
let client: OpenAI;

const compatibleRules = {
  sizes: ['1024x1024', '1536x1024', '1024x1536', 'auto'],
  qualities: ['low', 'medium', 'high', 'auto'],
  max_n: 4,
  response_formats: ['b64_json', 'url'],
  output_formats: ['png', 'jpeg', 'webp'],
  backgrounds: ['transparent', 'opaque', 'auto'],
  edits: true,
};

const geminiThreeRules = {
  sizes: ['1024x1024', 'auto'],
  qualities: ['standard', 'auto'],
  max_n: 1,
  response_formats: ['b64_json', 'url'],
  output_formats: ['png', 'jpeg'],
  edits: true,
};

beforeAll(async () => {
  upstream = await startScriptedUpstream();
  gateway = await startTestGateway({
    providers: {
      openai: { type: 'openai', base_url: `${upstream.url}/v1`, api_key: 'upstream-openai-secret' },
      compatible: { type: 'openai-compatible', base_url: `${upstream.url}/compat/v1`, api_key: 'upstream-compatible-secret' },
      google: { type: 'gemini', base_url: upstream.url, api_key: 'upstream-google-secret' },
    },
    models: [
      { id: 'gpt-image-1', output_modality: 'image', routes: [{ provider: 'openai', model: 'gpt-image-1' }] },
      {
        id: 'compat-image',
        output_modality: 'image',
        routes: [{ provider: 'compatible', model: 'vendor-image-v2' }],
        image: compatibleRules,
        price: { effective_from: '2026-01-01', per_image: { 'medium/1024x1024': '0.03', 'high/1024x1024': '0.05' } },
      },
      { id: 'imagen-4.0-generate-001', output_modality: 'image', routes: [{ provider: 'google', model: 'imagen-4.0-generate-001' }] },
      { id: 'gemini-2.5-flash-image', output_modality: 'image', routes: [{ provider: 'google', model: 'gemini-2.5-flash-image' }] },
      ...['gemini-3-pro-image', 'gemini-3-pro-image-preview'].map((id) => ({
        id,
        output_modality: 'image',
        routes: [{ provider: 'google', model: id }],
        image: geminiThreeRules,
        price: { effective_from: '2026-01-01', per_image: { 'standard/1024x1024': '0.134' } },
      })),
    ],
  });
  client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'unused', maxRetries: 0 });
});
afterAll(async () => {
  await gateway.close();
  await upstream.close();
});
beforeEach(() => {
  upstream.requests.length = 0;
});

/** Replays one recording, its cut image bytes replaced by pictures; answers which pictures went out. */
async function replay(fixture: string, fallback = { width: 1024, height: 1024 }): Promise<GeneratedPicture[]> {
  const { body, pictures } = await recordedBodyWithPictures(fixture, fallback);
  upstream.reply({ body });
  return pictures;
}

function onlyRequest(): ReceivedRequest {
  expect(upstream.requests).toHaveLength(1);
  return upstream.requests[0]!;
}

function jsonBody(request: ReceivedRequest): Record<string, unknown> {
  expect(request.headers['content-type']).toMatch(/^application\/json/);
  return JSON.parse(request.body) as Record<string, unknown>;
}

/** The names of the parts of a multipart body, in order. */
function formFieldNames(request: ReceivedRequest): string[] {
  expect(request.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
  return [...request.body.matchAll(/content-disposition: form-data; name="([^"]+)"/gi)].map((match) => match[1] ?? '');
}

function formValue(request: ReceivedRequest, name: string): string | undefined {
  const match = new RegExp(`name="${name.replace(/[[\]]/g, '\\$&')}"\\r\\n\\r\\n([^\\r]*)\\r\\n`).exec(request.body);
  return match?.[1];
}

/** The returned items are the stand-in pictures, byte for byte, and decode at their sizes. */
async function expectPictures(data: readonly { b64_json?: string | undefined }[] | undefined, pictures: readonly GeneratedPicture[]): Promise<void> {
  expect(data?.map((item) => item.b64_json)).toEqual(pictures.map((picture) => picture.base64));
  for (const [index, item] of (data ?? []).entries()) {
    const { format, width, height } = await sharp(Buffer.from(item.b64_json ?? '', 'base64')).metadata();
    const picture = pictures[index]!;
    expect({ format, width, height }).toEqual({ format: picture.format, width: picture.width, height: picture.height });
  }
}

async function ledgerEntryOf(requestId: string): Promise<LedgerEntry> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    await gateway.services.ledger.flush();
    const entry = (await gateway.services.storage.ledger.list({ limit: 1_000 })).find((candidate) => candidate.requestId === requestId);
    if (entry !== undefined) return entry;
    if (Date.now() > deadline) throw new Error(`no ledger entry for ${requestId}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function picture(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 10, g: 160, b: 90 } } }).png().toBuffer();
}

describe('OpenAI (provider kind openai)', () => {
  it('replays a gpt-image-1 answer with usage, sending no response_format', async () => {
    const pictures = await replay('openai/images/observed-omnimaas-docs.gpt-image-1.usage.json');
    const { data: answer, response } = await client.images
      .generate({ model: 'gpt-image-1', prompt: 'a paper crane', quality: 'high', size: '1024x1024', response_format: 'b64_json' })
      .withResponse();
    await expectPictures(answer.data, pictures);
    expect(answer).toMatchObject({ model: 'gpt-image-1', size: '1024x1024', quality: 'high', output_format: 'png', background: 'opaque' });
    expect(answer.usage).toMatchObject({ input_tokens: 52, output_tokens: 4160, total_tokens: 4212 });

    const sent = onlyRequest();
    expect(sent.method).toBe('POST');
    expect(sent.path).toBe('/v1/images/generations');
    expect(sent.headers.authorization).toBe('Bearer upstream-openai-secret');
    expect(jsonBody(sent)).toEqual({ model: 'gpt-image-1', prompt: 'a paper crane', n: 1, size: '1024x1024', quality: 'high' });
    const entry = await ledgerEntryOf(response.headers.get('x-request-id') ?? '');
    expect(entry).toMatchObject({ provider: 'openai', upstreamModel: 'gpt-image-1', images: 1, output: 4160, costNanoUsd: 167_000_000n });
  });

  it('replays the documented gpt-image answer (no size reported: billed at the size asked)', async () => {
    const pictures = await replay('openai/images/spec-example.gpt-image.response.json', { width: 1536, height: 1024 });
    const { data: answer, response } = await client.images
      .generate({ model: 'gpt-image-1', prompt: 'a harbour', quality: 'medium', size: '1536x1024', response_format: 'b64_json' })
      .withResponse();
    await expectPictures(answer.data, pictures);
    expect(answer).toMatchObject({ size: '1536x1024', quality: 'medium' });
    expect(jsonBody(onlyRequest())).not.toHaveProperty('response_format');
    expect(response.headers.get('x-request-cost-usd')).toBe('0.063');
  });

  it('serves url to a client although gpt-image answers base64', async () => {
    const pictures = await replay('openai/images/observed-omnimaas-docs.gpt-image-1.usage.json');
    const answer = await client.images.generate({ model: 'gpt-image-1', prompt: 'a paper crane', quality: 'high', size: '1024x1024', response_format: 'url' });
    expect(jsonBody(onlyRequest())).not.toHaveProperty('response_format');
    const served = await fetch(answer.data?.[0]?.url ?? '');
    expect(Buffer.from(await served.arrayBuffer()).toString('base64')).toBe(pictures[0]?.base64);
  });

  it('replays an edit answer, sending the picture and mask as multipart', async () => {
    const pictures = await replay('openai/images/openai-image-edit.json');
    const answer = await client.images.edit({
      model: 'gpt-image-1',
      prompt: 'make it evening',
      image: await toFile(await picture(64, 64), 'scene.png', { type: 'image/png' }),
      mask: await toFile(await picture(64, 64), 'mask.png', { type: 'image/png' }),
      quality: 'high',
    });
    await expectPictures(answer.data, pictures);
    expect(answer).toMatchObject({ model: 'gpt-image-1', size: '1024x1024', quality: 'high', output_format: 'png' });
    const sent = onlyRequest();
    expect(sent.path).toBe('/v1/images/edits');
    expect(formFieldNames(sent)).toEqual(['model', 'prompt', 'image', 'mask', 'n', 'quality']);
    expect(formValue(sent, 'model')).toBe('gpt-image-1');
    expect(formValue(sent, 'prompt')).toBe('make it evening');
    expect(sent.body).toContain('filename="scene.png"');
    expect(sent.body).toContain('filename="mask.png"');
  });

  it("relays the upstream's own refusal of a parameter as the client's 400", async () => {
    upstream.reply({ status: 400, body: readFixture('openai/images/gpt-image-response-format-error.json') });
    const failure = await client.images.generate({ model: 'gpt-image-1', prompt: 'x', quality: 'low', size: '1024x1024' }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(APIError);
    expect((failure as APIError).status).toBe(400);
    expect((failure as APIError).message).toContain("Unknown parameter: 'response_format'.");
    const entry = await ledgerEntryOf((failure as APIError).headers?.get('x-request-id') ?? '');
    expect(entry).toMatchObject({ status: 400, images: 0, costNanoUsd: 0n });
  });
});

describe('an OpenAI-compatible server', () => {
  it('replays two images with a revised prompt, having asked for b64_json', async () => {
    const pictures = await replay('openai/images/openai-image.json');
    const { data: answer, response } = await client.images
      .generate({ model: 'compat-image', prompt: 'a sea otter', n: 2, quality: 'medium', size: '1024x1024', response_format: 'b64_json' })
      .withResponse();
    await expectPictures(answer.data, pictures);
    expect(answer.data?.[0]?.revised_prompt).toMatch(/^A small and adorable baby sea otter/);
    expect(answer.data?.[1]?.revised_prompt).toBeUndefined();
    const sent = onlyRequest();
    expect(sent.path).toBe('/compat/v1/images/generations');
    expect(jsonBody(sent)).toEqual({ model: 'vendor-image-v2', prompt: 'a sea otter', n: 2, size: '1024x1024', quality: 'medium', response_format: 'b64_json' });
    expect(await ledgerEntryOf(response.headers.get('x-request-id') ?? '')).toMatchObject({ images: 2, costNanoUsd: 60_000_000n });
  });

  it('edits two pictures with a multipart form that asks for b64_json', async () => {
    const pictures = await replay('openai/images/openai-image-edit.json');
    const answer = await client.images.edit({
      model: 'compat-image',
      prompt: 'blend them',
      image: [await toFile(await picture(32, 32), 'one.png', { type: 'image/png' }), await toFile(await picture(48, 32), 'two.png', { type: 'image/png' })],
    });
    await expectPictures(answer.data, pictures);
    const sent = onlyRequest();
    expect(sent.path).toBe('/compat/v1/images/edits');
    expect(formFieldNames(sent)).toEqual(['model', 'prompt', 'image[]', 'image[]', 'n', 'response_format']);
    expect(formValue(sent, 'response_format')).toBe('b64_json');
  });

  it('refuses an answer of upstream URLs (never fetched), charging nothing', async () => {
    upstream.reply({ body: readFixture('openai/images/openllmetry.dall-e-2.url.json') });
    const failure = await client.images.generate({ model: 'compat-image', prompt: 'x', response_format: 'b64_json' }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(APIError);
    expect((failure as APIError).status).toBe(502);
    expect(upstream.requests).toHaveLength(1);
    const entry = await ledgerEntryOf((failure as APIError).headers?.get('x-request-id') ?? '');
    expect(entry).toMatchObject({ images: 0, costNanoUsd: 0n });
  });
});

describe('Imagen through the Gemini API', () => {
  it('replays the cookbook predict answer', async () => {
    const pictures = await replay('google/images/cookbook-imagen-rest.predict.json');
    const { data: answer, response } = await client.images.generate({ model: 'imagen-4.0-generate-001', prompt: 'a robot', response_format: 'b64_json' }).withResponse();
    await expectPictures(answer.data, pictures);
    expect(answer).toMatchObject({ model: 'imagen-4.0-generate-001', size: '1024x1024', quality: 'standard', output_format: 'png' });
    const sent = onlyRequest();
    expect(sent.path).toBe('/v1beta/models/imagen-4.0-generate-001:predict');
    expect(sent.headers['x-goog-api-key']).toBe('upstream-google-secret');
    expect(jsonBody(sent)).toEqual({ instances: [{ prompt: 'a robot' }], parameters: { sampleCount: 1, includeRaiReason: true } });
    expect(await ledgerEntryOf(response.headers.get('x-request-id') ?? '')).toMatchObject({ images: 1, costNanoUsd: 40_000_000n });
  });

  it('replays the redacted 4:3 answer at the aspect ratio asked', async () => {
    const pictures = await replay('google/images/issue-10843-google-imagen-generate-image.json', { width: 1280, height: 896 });
    const answer = await client.images.generate({ model: 'imagen-4.0-generate-001', prompt: 'a valley', size: '1280x896', response_format: 'b64_json' });
    await expectPictures(answer.data, pictures);
    expect(pictures[0]).toMatchObject({ width: 1280, height: 896 });
    expect(answer.size).toBe('1280x896');
    expect(jsonBody(onlyRequest())).toMatchObject({ parameters: { sampleCount: 1, aspectRatio: '4:3' } });
  });

  it('replays two Vertex predictions, each with its enhanced prompt', async () => {
    const pictures = await replay('google/images/google-vertex-image.json');
    const { data: answer, response } = await client.images.generate({ model: 'imagen-4.0-generate-001', prompt: 'a red disk', n: 2, response_format: 'b64_json' }).withResponse();
    await expectPictures(answer.data, pictures);
    expect(answer.data?.[0]?.revised_prompt).toMatch(/^A minimalist image/);
    expect(answer.data?.[1]?.revised_prompt).toEqual(expect.any(String));
    expect(jsonBody(onlyRequest())).toMatchObject({ parameters: { sampleCount: 2 } });
    expect(await ledgerEntryOf(response.headers.get('x-request-id') ?? '')).toMatchObject({ images: 2, costNanoUsd: 80_000_000n });
  });
});

describe('Gemini image output (generateContent)', () => {
  it.each([
    ['pydantic-ai.gemini-2.5-flash-image.text-and-image.json', 'gemini-2.5-flash-image', 'png', 39_000_000n],
    ['pydantic-ai.vertex.gemini-2.5-flash-image.text-and-image.json', 'gemini-2.5-flash-image', 'png', 39_000_000n],
    ['pydantic-ai.gemini-3-pro-image-preview.text-and-image.json', 'gemini-3-pro-image-preview', 'jpeg', 134_000_000n],
    ['pydantic-ai.gemini-3-pro-image.image-only.json', 'gemini-3-pro-image', 'jpeg', 134_000_000n],
  ] as const)('replays %s', async (fixture, model, format, cost) => {
    const pictures = await replay(`google/images/${fixture}`);
    expect(pictures.map((item) => item.format)).toEqual([format]);
    const { data: answer, response } = await client.images.generate({ model, prompt: 'an axolotl', response_format: 'b64_json' }).withResponse();
    await expectPictures(answer.data, pictures);
    expect(answer).toMatchObject({ model, size: '1024x1024', quality: 'standard', output_format: format });
    const sent = onlyRequest();
    expect(sent.path).toBe(`/v1beta/models/${model}:generateContent`);
    const body = jsonBody(sent) as { contents: { role: string; parts: { text?: string }[] }[]; generationConfig: { responseModalities: string[] } };
    expect(body.contents).toEqual([{ role: 'user', parts: [{ text: 'an axolotl' }] }]);
    expect(body.generationConfig.responseModalities).toContain('IMAGE');
    const entry = await ledgerEntryOf(response.headers.get('x-request-id') ?? '');
    expect(entry).toMatchObject({ provider: 'google', upstreamModel: model, images: 1, costNanoUsd: cost });
    expect(entry.output).toBeGreaterThan(0);
  });

  it('sends an edit as inline pictures in the user turn', async () => {
    const pictures = await replay('google/images/pydantic-ai.gemini-2.5-flash-image.text-and-image.json');
    const input = await picture(40, 30);
    const answer = await client.images.edit({ model: 'gemini-2.5-flash-image', prompt: 'add a hat', image: await toFile(input, 'pet.png', { type: 'image/png' }) });
    await expectPictures(answer.data, pictures);
    const body = jsonBody(onlyRequest()) as { contents: { parts: { text?: string; inlineData?: { mimeType: string; data: string } }[] }[] };
    const parts = body.contents[0]?.parts ?? [];
    expect(parts).toContainEqual({ text: 'add a hat' });
    expect(parts).toContainEqual({ inlineData: { mimeType: 'image/png', data: input.toString('base64') } });
  });
});
