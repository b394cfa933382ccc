import OpenAI, { APIError, toFile } from 'openai';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/default-config.js';
import type { LedgerEntry } from '../../src/metering/ledger-entry.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { insertApiKey } from '../support/insert-api-key.js';

/**
 * The images endpoints end to end against the built-in simulator, through the real `openai` SDK:
 * every returned picture is decoded and measured, and every call's ledger entry is checked to the
 * nano-USD against the sim-image price list (tier × images returned).
 */

let gateway: TestGateway;
let client: OpenAI;

beforeAll(async () => {
  gateway = await startTestGateway(defaultConfig({}));
  client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'unused', maxRetries: 0 });
});
afterAll(async () => {
  await gateway.close();
});

/** The ledger entry of one request, once written (entries land a moment after the answer). */
async function ledgerEntryOf(target: TestGateway, requestId: string): Promise<LedgerEntry> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    await target.services.ledger.flush();
    const entry = (await target.services.storage.ledger.list({ limit: 1_000 })).find((candidate) => candidate.requestId === requestId);
    if (entry !== undefined) return entry;
    if (Date.now() > deadline) throw new Error(`no ledger entry for ${requestId}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** USD as nano-USD: the price list's decimal strings, exactly. */
function nanoUsd(usd: string): bigint {
  const [whole, fraction = ''] = usd.split('.');
  return BigInt(whole ?? '0') * 1_000_000_000n + BigInt(fraction.padEnd(9, '0'));
}

function formatUsd(nano: bigint): string {
  const whole = nano / 1_000_000_000n;
  const fraction = (nano % 1_000_000_000n).toString().padStart(9, '0').replace(/0+$/, '');
  return fraction === '' ? whole.toString() : `${whole}.${fraction}`;
}

async function measure(bytes: Buffer): Promise<{ format: string | undefined; width: number | undefined; height: number | undefined }> {
  const { format, width, height } = await sharp(bytes).metadata();
  return { format, width, height };
}

async function decoded(base64: string | undefined): Promise<{ format: string | undefined; width: number | undefined; height: number | undefined }> {
  expect(typeof base64).toBe('string');
  return measure(Buffer.from(base64 ?? '', 'base64'));
}

async function fetched(url: string | undefined): Promise<{ format: string | undefined; width: number | undefined; height: number | undefined }> {
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1\/images\/content\//);
  // No key: the URL alone is the permission.
  const response = await fetch(url ?? '');
  expect(response.status).toBe(200);
  return measure(Buffer.from(await response.arrayBuffer()));
}

async function picture(width: number, height: number, colour: { r: number; g: number; b: number }): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: colour } }).png().toBuffer();
}

async function maskPicture(width: number, height: number): Promise<Buffer> {
  // Transparent everywhere: the prompt's drawing may land anywhere.
  return sharp({ create: { width, height, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } }).png().toBuffer();
}

describe('images.generate through the simulator', () => {
  it('answers b64_json at the size and quality asked, billed at that tier times n', async () => {
    const { data: answer, response } = await client.images
      .generate({ model: 'sim-image', prompt: 'a lighthouse at dusk', size: '1536x1024', quality: 'high', n: 2, response_format: 'b64_json' })
      .withResponse();
    expect(answer).toMatchObject({ model: 'sim-image', size: '1536x1024', quality: 'high', output_format: 'png' });
    expect(answer.data).toHaveLength(2);
    for (const image of answer.data ?? []) expect(await decoded(image.b64_json)).toEqual({ format: 'png', width: 1536, height: 1024 });
    expect(answer.data?.[0]?.b64_json).not.toBe(answer.data?.[1]?.b64_json);

    const requestId = response.headers.get('x-request-id') ?? '';
    const entry = await ledgerEntryOf(gateway, requestId);
    const cost = nanoUsd('0.24') * 2n;
    expect(entry).toMatchObject({ endpoint: 'images', model: 'sim-image', provider: 'sim-openai', upstreamModel: 'sim-image', status: 200, images: 2, costNanoUsd: cost });
    expect(response.headers.get('x-request-cost-usd')).toBe(formatUsd(cost));
  });

  it.each([
    ['jpeg', 'jpeg'],
    ['webp', 'webp'],
  ] as const)('answers a URL that serves a %s picture without a key', async (outputFormat, sharpFormat) => {
    const { data: answer, response } = await client.images
      .generate({ model: 'sim-image', prompt: 'a red kite', size: '1024x1536', quality: 'low', output_format: outputFormat, response_format: 'url' })
      .withResponse();
    expect(answer).toMatchObject({ model: 'sim-image', size: '1024x1536', quality: 'low', output_format: outputFormat });
    expect(answer.data).toHaveLength(1);
    expect(answer.data?.[0]?.b64_json).toBeUndefined();
    expect(await fetched(answer.data?.[0]?.url)).toEqual({ format: sharpFormat, width: 1024, height: 1536 });
    const entry = await ledgerEntryOf(gateway, response.headers.get('x-request-id') ?? '');
    expect(entry).toMatchObject({ images: 1, costNanoUsd: nanoUsd('0.015') });
    expect(response.headers.get('x-request-cost-usd')).toBe('0.015');
  });

  it('bills an auto request at the tier the simulator reports making (medium, 1024x1024)', async () => {
    const { data: answer, response } = await client.images
      .generate({ model: 'sim-image', prompt: 'a quiet harbour', size: 'auto', quality: 'auto', n: 3, response_format: 'b64_json' })
      .withResponse();
    expect(answer).toMatchObject({ size: '1024x1024', quality: 'medium' });
    expect(answer.data).toHaveLength(3);
    for (const image of answer.data ?? []) expect(await decoded(image.b64_json)).toEqual({ format: 'png', width: 1024, height: 1024 });
    const cost = nanoUsd('0.04') * 3n;
    expect(await ledgerEntryOf(gateway, response.headers.get('x-request-id') ?? '')).toMatchObject({ images: 3, costNanoUsd: cost });
    expect(response.headers.get('x-request-cost-usd')).toBe(formatUsd(cost));
  });

  it('serves a request without model on the first image model, its default format being b64_json', async () => {
    const response = await fetch(`${gateway.url}/v1/images/generations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'no model named', quality: 'low', size: '1024x1024' }),
    });
    expect(response.status).toBe(200);
    const answer = (await response.json()) as { model: string; data: { b64_json?: string; url?: string }[] };
    expect(answer.model).toBe('sim-image');
    expect(await decoded(answer.data[0]?.b64_json)).toEqual({ format: 'png', width: 1024, height: 1024 });
    const entry = await ledgerEntryOf(gateway, response.headers.get('x-request-id') ?? '');
    expect(entry).toMatchObject({ model: 'sim-image', images: 1, costNanoUsd: nanoUsd('0.01') });
  });

  it('is also served without the /v1 prefix', async () => {
    const bare = new OpenAI({ baseURL: gateway.url, apiKey: 'unused', maxRetries: 0 });
    const answer = await bare.images.generate({ model: 'sim-image', prompt: 'bare path', quality: 'low', size: '1024x1024', response_format: 'b64_json' });
    expect(await decoded(answer.data?.[0]?.b64_json)).toEqual({ format: 'png', width: 1024, height: 1024 });
  });
});

describe('the dall-e-3 legacy alias', () => {
  it('defaults to a URL and maps hd / 1792x1024 / vivid to the current model', async () => {
    const { data: answer, response } = await client.images
      .generate({ model: 'dall-e-3', prompt: 'a vivid orchard', size: '1792x1024', quality: 'hd', style: 'vivid' })
      .withResponse();
    expect(answer).toMatchObject({ model: 'sim-image', size: '1536x1024', quality: 'high' });
    expect(answer.data).toHaveLength(1);
    expect(answer.data?.[0]?.b64_json).toBeUndefined();
    expect(await fetched(answer.data?.[0]?.url)).toEqual({ format: 'png', width: 1536, height: 1024 });
    const entry = await ledgerEntryOf(gateway, response.headers.get('x-request-id') ?? '');
    expect(entry).toMatchObject({ model: 'sim-image', images: 1, costNanoUsd: nanoUsd('0.24') });
    expect(response.headers.get('x-request-cost-usd')).toBe('0.24');
  });

  it('still gives base64 when asked for it', async () => {
    const answer = await client.images.generate({ model: 'dall-e-3', prompt: 'a standard orchard', size: '1024x1024', quality: 'standard', response_format: 'b64_json' });
    expect(answer).toMatchObject({ model: 'sim-image' });
    expect(await decoded(answer.data?.[0]?.b64_json)).toEqual({ format: 'png', width: 1024, height: 1024 });
  });
});

describe('images.edit through the simulator', () => {
  it('edits one picture with a mask, answering b64_json at the size asked', async () => {
    const { data: answer, response } = await client.images
      .edit({
        model: 'sim-image',
        prompt: 'add a moon',
        image: await toFile(await picture(640, 480, { r: 20, g: 120, b: 200 }), 'sky.png', { type: 'image/png' }),
        mask: await toFile(await maskPicture(640, 480), 'mask.png', { type: 'image/png' }),
        size: '1024x1024',
        quality: 'medium',
      })
      .withResponse();
    expect(answer).toMatchObject({ model: 'sim-image', size: '1024x1024', quality: 'medium' });
    expect(await decoded(answer.data?.[0]?.b64_json)).toEqual({ format: 'png', width: 1024, height: 1024 });
    const entry = await ledgerEntryOf(gateway, response.headers.get('x-request-id') ?? '');
    expect(entry).toMatchObject({ endpoint: 'images', images: 1, costNanoUsd: nanoUsd('0.04') });
    // Input pictures are counted as image tokens by the simulator.
    expect(entry.inputUncached).toBeGreaterThan(0);
  });

  it('edits two pictures into a jpeg at the size the first input suggests (auto)', async () => {
    const { data: answer, response } = await client.images
      .edit({
        model: 'sim-image',
        prompt: 'put them side by side',
        image: [
          await toFile(await picture(1200, 600, { r: 200, g: 40, b: 40 }), 'left.png', { type: 'image/png' }),
          await toFile(await picture(600, 600, { r: 40, g: 200, b: 40 }), 'right.png', { type: 'image/png' }),
        ],
        size: 'auto',
        quality: 'low',
        output_format: 'jpeg',
        response_format: 'url',
      })
      .withResponse();
    expect(answer).toMatchObject({ model: 'sim-image', size: '1536x1024', quality: 'low', output_format: 'jpeg' });
    expect(await fetched(answer.data?.[0]?.url)).toEqual({ format: 'jpeg', width: 1536, height: 1024 });
    const entry = await ledgerEntryOf(gateway, response.headers.get('x-request-id') ?? '');
    expect(entry).toMatchObject({ images: 1, costNanoUsd: nanoUsd('0.015') });
    expect(response.headers.get('x-request-cost-usd')).toBe('0.015');
  });
});

describe('refusals', () => {
  it("keeps the upstream's reason and code for a content-policy refusal, recorded at cost 0", async () => {
    const before = (await gateway.services.storage.ledger.list({ limit: 1_000 })).length;
    const failure = await client.images.generate({ model: 'sim-image', prompt: 'draw this [refuse]', response_format: 'b64_json' }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(APIError);
    const error = failure as APIError;
    expect(error.status).toBe(400);
    expect(error.code).toBe('moderation_blocked');
    expect(error.message).toContain('Your request was rejected by the safety system');
    expect(error.message).toContain('safety_violations=[violence]');
    const requestId = error.headers?.get('x-request-id') ?? '';
    const entry = await ledgerEntryOf(gateway, requestId);
    expect(entry).toMatchObject({ endpoint: 'images', model: 'sim-image', status: 400, images: 0, costNanoUsd: 0n });
    expect(await gateway.services.storage.ledger.list({ limit: 1_000 })).toHaveLength(before + 1);
  });

  it('refuses a key scoped to other endpoints with 403, charging nothing', async () => {
    const scoped = await startTestGateway(defaultConfig({}));
    try {
      const secret = await insertApiKey(scoped.services.storage, 'chat only', { endpoints: ['chat'], models: null });
      const chatOnly = new OpenAI({ baseURL: `${scoped.url}/v1`, apiKey: secret, maxRetries: 0 });
      const failure = await chatOnly.images.generate({ model: 'sim-image', prompt: 'not mine to ask' }).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(APIError);
      expect((failure as APIError).status).toBe(403);
      // The same key may chat, so the key itself is good.
      const chat = await chatOnly.chat.completions.create({ model: 'sim-gpt', messages: [{ role: 'user', content: 'hi' }] });
      expect(chat.choices).toHaveLength(1);
      await scoped.services.ledger.flush();
      const entries = await scoped.services.storage.ledger.list({ limit: 1_000 });
      expect(entries.filter((entry) => entry.endpoint === 'images')).toEqual([]);
    } finally {
      await scoped.close();
    }
  });
});
