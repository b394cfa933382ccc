import OpenAI, { APIError } from 'openai';
import type { ImageGenStreamEvent } from 'openai/resources/images';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { LedgerEntry } from '../../src/metering/ledger-entry.js';
import { drawPicture } from '../support/fake-bedrock/image-answers.js';
import { startFakeBedrock, type FakeBedrock } from '../support/fake-bedrock/fake-bedrock.js';
import { readFixture, readJsonFixture } from '../support/fixtures.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { insertLimitedKey } from '../support/limited-keys.js';

/**
 * Image generation on Bedrock through the gateway, with the openai SDK: Amazon Nova Canvas and
 * Stable Image Ultra behind the fake Bedrock Runtime, which recomputes every call's SigV4 signature
 * and checks each body as the model does. Every picture is decoded and measured; every call's
 * ledger entry is checked to the nano-USD against the per-image prices configured below.
 */

const novaCanvas = 'amazon.nova-canvas-v1:0';
const ultra = 'stability.stable-image-ultra-v1:1';
let bedrock: FakeBedrock;
let gateway: TestGateway;
let client: OpenAI;
let secret: string;

beforeAll(async () => {
  bedrock = await startFakeBedrock();
  const keys = { access_key_id: bedrock.secret.accessKeyId, secret_access_key: bedrock.secret.secretAccessKey };
  gateway = await startTestGateway({
    providers: {
      bedrock: { type: 'bedrock', region: 'us-east-1', base_url: bedrock.url, ...keys },
      // The same fake, signed with a secret it does not know.
      'bedrock-wrong-secret': { type: 'bedrock', region: 'us-east-1', base_url: bedrock.url, access_key_id: bedrock.secret.accessKeyId, secret_access_key: 'not/the/secret/key/0000000000000000000000' },
    },
    models: [
      {
        id: 'nova-canvas',
        output_modality: 'image',
        routes: [{ provider: 'bedrock', model: novaCanvas }],
        // Priced by size class: a size is billed at the smallest listed size holding its pixels.
        price: { effective_from: '2025-01-01', per_image: { 'standard/1024x1024': '0.04', 'standard/2048x2048': '0.06', 'premium/1024x1024': '0.06', 'premium/2048x2048': '0.08' } },
      },
      { id: 'stable-image-ultra', output_modality: 'image', routes: [{ provider: 'bedrock', model: ultra }], price: { effective_from: '2025-01-01', per_image: { 'standard/1024x1024': '0.14' } } },
      { id: 'nova-canvas-unpriced', output_modality: 'image', routes: [{ provider: 'bedrock', model: novaCanvas }] },
      { id: 'nova-canvas-badly-signed', output_modality: 'image', routes: [{ provider: 'bedrock-wrong-secret', model: novaCanvas }], price: { per_image: { 'standard/1024x1024': '0.04' } } },
    ],
  });
  // Keys with budgets are stored below, so the gateway is not open: every call carries a key.
  ({ secret } = await insertLimitedKey(gateway.services.storage, {}));
  client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: secret, maxRetries: 0 });
});

afterAll(async () => {
  await gateway.close();
  await bedrock.close();
});

beforeEach(() => {
  bedrock.requests.length = 0;
  bedrock.refused.length = 0;
});

async function ledger(): Promise<LedgerEntry[]> {
  await gateway.services.ledger.flush();
  return gateway.services.storage.ledger.list({ limit: 1_000 });
}

/** The entry of the call that answered with `requestId`, once written. */
async function entryOf(requestId: string | null): Promise<LedgerEntry> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const entry = (await ledger()).find((candidate) => candidate.requestId === requestId);
    if (entry !== undefined) return entry;
    if (Date.now() > deadline) throw new Error(`no ledger entry for ${requestId}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function measured(base64: string | undefined): Promise<{ format: string | undefined; width: number | undefined; height: number | undefined }> {
  const { format, width, height } = await sharp(Buffer.from(base64 ?? '', 'base64')).metadata();
  return { format, width, height };
}

/** The body the fake Bedrock received last, and that it came signed with the gateway's key. */
function lastSignedBody(): Record<string, unknown> {
  const sent = bedrock.requests.at(-1);
  expect(bedrock.refused).toEqual([]);
  expect(sent?.headers['authorization']).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIAFAKEBEDROCK0001\/\d{8}\/us-east-1\/bedrock\/aws4_request, SignedHeaders=[^,]+, Signature=[0-9a-f]{64}$/);
  return JSON.parse(sent?.bodyText ?? '{}') as Record<string, unknown>;
}

describe('Amazon Nova Canvas on Bedrock', () => {
  it('answers images.generate with n PNGs of the size asked, from one signed InvokeModel call, and bills them by size class', async () => {
    const { data: answer, response } = await client.images.generate({ model: 'nova-canvas', prompt: 'a lighthouse at dusk', n: 2, size: '1280x720' as '1024x1024', quality: 'standard', response_format: 'b64_json' }).withResponse();

    expect(answer.data).toHaveLength(2);
    for (const image of answer.data ?? []) expect(await measured(image.b64_json)).toEqual({ format: 'png', width: 1280, height: 720 });
    expect(answer.data?.[0]?.b64_json).not.toBe(answer.data?.[1]?.b64_json);
    expect(bedrock.requests).toHaveLength(1);
    expect(bedrock.requests[0]?.path).toBe(`/model/${encodeURIComponent(novaCanvas)}/invoke`);
    expect(lastSignedBody()).toEqual({
      taskType: 'TEXT_IMAGE',
      textToImageParams: { text: 'a lighthouse at dusk' },
      imageGenerationConfig: { numberOfImages: 2, width: 1280, height: 720, quality: 'standard' },
    });
    const entry = await entryOf(response.headers.get('x-request-id'));
    expect(entry).toMatchObject({ model: 'nova-canvas', provider: 'bedrock', upstreamModel: novaCanvas, endpoint: 'images', status: 200, images: 2, costNanoUsd: 80_000_000n });
    expect(response.headers.get('x-request-cost-usd')).toBe('0.08');
  });

  it('answers response_format url with a link to the premium picture, billed at the premium size class that holds it', async () => {
    const { data: answer, response } = await client.images
      .generate({ model: 'nova-canvas', prompt: 'a lighthouse at dawn', size: '2048x1024' as '1024x1024', quality: 'premium' as 'hd', response_format: 'url' })
      .withResponse();

    const url = answer.data?.[0]?.url;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1\/images\/content\//);
    const fetched = await fetch(url ?? '');
    expect(fetched.status).toBe(200);
    const { format, width, height } = await sharp(Buffer.from(await fetched.arrayBuffer())).metadata();
    expect({ format, width, height }).toEqual({ format: 'png', width: 2048, height: 1024 });
    expect(lastSignedBody()).toMatchObject({ imageGenerationConfig: { numberOfImages: 1, width: 2048, height: 1024, quality: 'premium' } });
    expect(await entryOf(response.headers.get('x-request-id'))).toMatchObject({ images: 1, costNanoUsd: 80_000_000n });
  });

  it('draws 1024x1024 at the standard tier when size and quality are left to the model', async () => {
    const { data: answer, response } = await client.images.generate({ model: 'nova-canvas', prompt: 'a quiet harbour' }).withResponse();
    expect(await measured(answer.data?.[0]?.b64_json)).toEqual({ format: 'png', width: 1024, height: 1024 });
    expect(lastSignedBody()).toMatchObject({ imageGenerationConfig: { width: 1024, height: 1024, quality: 'standard' } });
    expect(await entryOf(response.headers.get('x-request-id'))).toMatchObject({ images: 1, costNanoUsd: 40_000_000n });
  });

  it('hands on the pictures the content filters left, and charges only those', async () => {
    bedrock.script({ kind: 'invoke', body: { images: [await drawPicture(512, 512)], error: 'Some of the generated images have been blocked by our content filters.' } });
    const { data: answer, response } = await client.images.generate({ model: 'nova-canvas', prompt: 'two boats', n: 2, size: '512x512' as '1024x1024' }).withResponse();
    expect(answer.data).toHaveLength(1);
    expect(await measured(answer.data?.[0]?.b64_json)).toEqual({ format: 'png', width: 512, height: 512 });
    expect(await entryOf(response.headers.get('x-request-id'))).toMatchObject({ images: 1, costNanoUsd: 40_000_000n });
  });
});

describe('budgets on Bedrock\'s image models', () => {
  it('reserves the size class of the size asked, so a budget that holds it is served and one that does not is refused before Bedrock is called', async () => {
    // 0.05 USD holds one standard picture up to 1024x1024 (0.04) but not two, nor one up to 2048x2048 (0.06).
    const { secret: holding } = await insertLimitedKey(gateway.services.storage, { budgetNanoUsd: 50_000_000n });
    const budgeted = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: holding, maxRetries: 0 });
    const { data: answer, response } = await budgeted.images.generate({ model: 'nova-canvas', prompt: 'a buoy', size: '1280x720' as '1024x1024', quality: 'standard' }).withResponse();
    expect(answer.data).toHaveLength(1);
    expect(await entryOf(response.headers.get('x-request-id'))).toMatchObject({ images: 1, costNanoUsd: 40_000_000n });
    bedrock.requests.length = 0;

    const { secret: fresh } = await insertLimitedKey(gateway.services.storage, { budgetNanoUsd: 50_000_000n });
    const second = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: fresh, maxRetries: 0 });
    for (const fields of [{ n: 2, size: '1280x720' }, { n: 1, size: '1536x1024' }]) {
      const error = await second.images.generate({ model: 'nova-canvas', prompt: 'a buoy', quality: 'standard', ...fields } as { prompt: string }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(APIError);
      expect((error as APIError).status).toBe(402);
    }
    expect(bedrock.requests).toEqual([]);
  });

  it('refuses a budgeted key a Bedrock image model with no price, since the pricing dataset has none for it', async () => {
    const { secret: budgetedSecret } = await insertLimitedKey(gateway.services.storage, { budgetNanoUsd: 1_000_000_000n });
    const budgeted = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: budgetedSecret, maxRetries: 0 });
    const error = await budgeted.images.generate({ model: 'nova-canvas-unpriced', prompt: 'a buoy' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).status).toBe(402);
    expect((error as APIError).code).toBe('model_unpriced');
    expect(bedrock.requests).toEqual([]);
  });
});

describe('streamed images from Bedrock', () => {
  it('plays a whole Nova Canvas answer out as the Images API\'s events, billed once', async () => {
    const stream = await client.images.generate({ model: 'nova-canvas', prompt: 'a lighthouse', stream: true, partial_images: 1, n: 2, size: '768x512' as '1024x1024' });
    const events: ImageGenStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    expect(events.map((event) => event.type)).toEqual(['image_generation.partial_image', 'image_generation.completed', 'image_generation.partial_image', 'image_generation.completed']);
    for (const event of events) expect(await measured(event.b64_json)).toMatchObject({ width: 768, height: 512 });
    expect(events[1]).toMatchObject({ size: '768x512', quality: 'standard', output_format: 'png' });
    expect(bedrock.requests).toHaveLength(1);
    expect(lastSignedBody()).toMatchObject({ imageGenerationConfig: { numberOfImages: 2, width: 768, height: 512 } });
    const entries = await ledger();
    expect(entries[0]).toMatchObject({ model: 'nova-canvas', images: 2, costNanoUsd: 80_000_000n });
  });
});

describe('Stable Image Ultra on Bedrock', () => {
  it('asks for the aspect ratio of the size asked and answers with a picture of that size, billed per image', async () => {
    const { data: answer, response } = await client.images.generate({ model: 'stable-image-ultra', prompt: 'a car made out of vegetables', size: '1344x768' as '1024x1024' }).withResponse();

    expect(await measured(answer.data?.[0]?.b64_json)).toEqual({ format: 'png', width: 1344, height: 768 });
    expect(bedrock.requests[0]?.path).toBe(`/model/${encodeURIComponent(ultra)}/invoke`);
    expect(lastSignedBody()).toEqual({ prompt: 'a car made out of vegetables', aspect_ratio: '16:9', output_format: 'png' });
    expect(await entryOf(response.headers.get('x-request-id'))).toMatchObject({ model: 'stable-image-ultra', upstreamModel: ultra, images: 1, costNanoUsd: 140_000_000n });
  });

  it('writes the output format asked and serves it by url', async () => {
    const answer = await client.images.generate({ model: 'stable-image-ultra', prompt: 'a tall tower', size: '832x1216' as '1024x1024', output_format: 'webp', response_format: 'url' });
    const fetched = await fetch(answer.data?.[0]?.url ?? '');
    const { format, width, height } = await sharp(Buffer.from(await fetched.arrayBuffer())).metadata();
    expect({ format, width, height }).toEqual({ format: 'webp', width: 832, height: 1216 });
    expect(lastSignedBody()).toEqual({ prompt: 'a tall tower', aspect_ratio: '2:3', output_format: 'webp' });
  });

  it('refuses n above 1 before calling Bedrock, since the model makes one picture a call', async () => {
    const before = await ledger();
    const error = await client.images.generate({ model: 'stable-image-ultra', prompt: 'three cars', n: 3 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).status).toBe(400);
    expect((error as APIError).param).toBe('n');
    expect(bedrock.requests).toEqual([]);
    expect(await ledger()).toEqual(before);
  });
});

/** The refusal a client meets, with nothing charged for it: any entry written for the call is at 0. */
async function expectContentPolicyRefusal(ask: () => Promise<unknown>, mentions: string): Promise<void> {
  const before = (await ledger()).length;
  const error = await ask().catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(APIError);
  const refusal = error as APIError;
  expect(refusal.status).toBe(400);
  expect(refusal.code).toBe('content_policy_violation');
  expect(refusal.type).toBe('invalid_request_error');
  expect(refusal.message).toContain(mentions);
  const entries = await ledger();
  for (const entry of entries.slice(0, entries.length - before)) expect(entry).toMatchObject({ images: 0, costNanoUsd: 0n });
  // Refused on content grounds: not retried, not sent again.
  expect(bedrock.requests).toHaveLength(1);
}

describe('content-filter refusals on Bedrock', () => {
  it('gives a prompt Nova Canvas blocks as OpenAI\'s content-policy error, charged nothing', async () => {
    const blocked = readJsonFixture('bedrock/images/nova-canvas-prompt-blocked-error.json') as { message: string };
    bedrock.script({ kind: 'error', status: 400, errorType: 'ValidationException', message: blocked.message });
    await expectContentPolicyRefusal(() => client.images.generate({ model: 'nova-canvas', prompt: 'something blocked' }), 'This request has been blocked by our content filters.');
  });

  it('gives an answer whose every picture Nova Canvas withheld as the same refusal, charged nothing', async () => {
    bedrock.script({ kind: 'invoke', body: JSON.parse(readFixture('bedrock/images/nova-canvas-all-blocked-response.json')) as unknown });
    await expectContentPolicyRefusal(() => client.images.generate({ model: 'nova-canvas', prompt: 'something withheld', n: 2 }), 'All of the generated images have been blocked');
  });

  it('gives a Stability answer filtered for its prompt as the same refusal, charged nothing', async () => {
    bedrock.script({ kind: 'invoke', body: readJsonFixture('bedrock/images/stable-image-ultra-filtered-response.json') });
    await expectContentPolicyRefusal(() => client.images.generate({ model: 'stable-image-ultra', prompt: 'something filtered' }), 'Filter reason: prompt');
  });
});

describe('sizes Bedrock\'s image models cannot draw', () => {
  const refusals: readonly (readonly [string, Record<string, unknown>, string])[] = [
    ['a side not a multiple of 16', { model: 'nova-canvas', size: '1000x1000' }, 'size'],
    ['a side under 320 pixels', { model: 'nova-canvas', size: '256x256' }, 'size'],
    ['more than 4,194,304 pixels', { model: 'nova-canvas', size: '4096x2048' }, 'size'],
    ['a ratio beyond 1:4', { model: 'nova-canvas', size: '320x2048' }, 'size'],
    ['more than five pictures', { model: 'nova-canvas', n: 6 }, 'n'],
    ['a premium tier Stability does not have', { model: 'stable-image-ultra', quality: 'premium' }, 'quality'],
    ['a size no Stability aspect ratio makes', { model: 'stable-image-ultra', size: '1536x1024' }, 'size'],
  ];

  it.each(refusals)('refuses %s before anything is sent upstream, charging nothing', async (_name, fields, param) => {
    const before = await ledger();
    const response = await fetch(`${gateway.url}/v1/images/generations`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${secret}` }, body: JSON.stringify({ prompt: 'a kite', ...fields }) });
    const body = (await response.json()) as { error: { type: string; param: string | null; message: string } };
    expect(response.status, body.error.message).toBe(400);
    expect(body.error).toMatchObject({ type: 'invalid_request_error', param });
    expect(bedrock.requests).toEqual([]);
    expect(bedrock.refused).toEqual([]);
    expect(await ledger()).toEqual(before);
  });
});

describe('Bedrock\'s image models in discovery', () => {
  it('publishes each model\'s rules, known by its Bedrock id, with the configured price', async () => {
    const response = await fetch(`${gateway.url}/v1/images/models`, { headers: { authorization: `Bearer ${secret}` } });
    const listed = ((await response.json()) as { data: { id: string; owned_by: string; parameters: Record<string, unknown>; pricing: { priced: boolean } }[] }).data;
    expect(listed.find((model) => model.id === 'nova-canvas')).toMatchObject({
      owned_by: 'amazon',
      parameters: {
        dimensions: { min_width: 320, max_width: 4096, min_height: 320, max_height: 4096, multiple_of: 16, max_pixels: 4_194_304, min_aspect_ratio: 0.25, max_aspect_ratio: 4 },
        qualities: ['standard', 'premium', 'auto'],
        max_n: 5,
        edits: false,
      },
      pricing: { priced: true },
    });
    expect(listed.find((model) => model.id === 'stable-image-ultra')).toMatchObject({ owned_by: 'stability', parameters: { max_n: 1, output_formats: ['png', 'jpeg', 'webp'] } });
    expect(listed.find((model) => model.id === 'nova-canvas-unpriced')).toMatchObject({ pricing: { priced: false } });
  });
});

describe('the fake Bedrock checks each image call\'s signature', () => {
  it('refuses a call signed with the wrong secret, which the client meets as the upstream\'s failure, charged nothing', async () => {
    const error = await client.images.generate({ model: 'nova-canvas-badly-signed', prompt: 'a kite' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).status).toBe(502);
    expect(bedrock.requests).toEqual([]);
    // The route's retry is refused the same way.
    expect(bedrock.refused.length).toBeGreaterThan(0);
    for (const refusal of bedrock.refused) expect(refusal).toMatchObject({ status: 403, errorType: 'InvalidSignatureException', path: `/model/${encodeURIComponent(novaCanvas)}/invoke` });
    const entries = await ledger();
    expect(entries[0]).toMatchObject({ model: 'nova-canvas-badly-signed', images: 0, costNanoUsd: 0n });
  });
});
