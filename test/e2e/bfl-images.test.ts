import OpenAI, { APIError, toFile } from 'openai';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { LedgerEntry } from '../../src/metering/ledger-entry.js';
import { sampleLifetimeMs, startFakeBfl, type FakeBfl } from '../support/fake-bfl/fake-bfl.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { insertLimitedKey } from '../support/limited-keys.js';

/**
 * FLUX on Black Forest Labs' API behind the gateway, driven with the `openai` SDK: each image is a
 * BFL task the gateway submits, polls at the polling URL BFL names (a regional cluster) and whose
 * picture it fetches at once (BFL's delivery URLs last ten minutes), answered as base64 or as the
 * gateway's own URL. Billed per image or per megapixel as the model's price says; refusals,
 * failures, bad sizes and clients that leave cost nothing.
 */

let bfl: FakeBfl;
let gateway: TestGateway;
let client: OpenAI;

beforeAll(async () => {
  bfl = await startFakeBfl();
  gateway = await startTestGateway({
    providers: { bfl: { type: 'bfl', base_url: bfl.url, api_key: bfl.key } },
    images: { job_poll_interval_ms: 20, job_timeout_ms: 10_000 },
    // Failures here are the vendor's answers under test, not a route to stop using.
    routing: { circuit_breaker: { enabled: false, consecutive_failures: 5, cooldown_ms: 30_000 } },
    models: ['flux-pro-1.1', 'flux-pro-1.1-ultra', 'flux-kontext-pro', 'flux-2-pro'].map((id) => ({ id, output_modality: 'image', routes: [{ provider: 'bfl', model: id }] })),
  });
  client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'unused', maxRetries: 0 });
});

afterAll(async () => {
  await gateway.close();
  await bfl.close();
});

beforeEach(() => {
  bfl.requests.length = 0;
  bfl.pendingPolls = 2;
});

async function ledgerEntryOf(requestId: string | null | undefined): Promise<LedgerEntry> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    await gateway.services.ledger.flush();
    const entry = (await gateway.services.storage.ledger.list({ limit: 1_000 })).find((candidate) => candidate.requestId === requestId);
    if (entry !== undefined) return entry;
    if (Date.now() > deadline) throw new Error(`no ledger entry for ${requestId}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function ledgerTotal(): Promise<{ entries: number; costNanoUsd: bigint }> {
  await gateway.services.ledger.flush();
  const entries = await gateway.services.storage.ledger.list({ limit: 1_000 });
  return { entries: entries.length, costNanoUsd: entries.reduce((sum, entry) => sum + entry.costNanoUsd, 0n) };
}

async function refusal(call: Promise<unknown>): Promise<APIError> {
  const error = await call.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(APIError);
  return error as APIError;
}

async function decoded(base64: string | undefined): Promise<{ format?: string; width?: number; height?: number }> {
  const { format, width, height } = await sharp(Buffer.from(base64 ?? '', 'base64')).metadata();
  return { format, width, height };
}

const submits = (): number => bfl.requests.filter((request) => request.method === 'POST').length;

describe('FLUX generations on BFL', () => {
  it('answers base64 of the size asked after polling the regional polling URL, billed per image', async () => {
    const { data: answer, response } = await client.images.generate({ model: 'flux-pro-1.1', prompt: 'A lighthouse at dawn', size: '1024x768' as '1024x1024' }).withResponse();
    expect(answer.data).toHaveLength(1);
    expect(await decoded(answer.data?.[0]?.b64_json)).toEqual({ format: 'png', width: 1024, height: 768 });
    expect(answer).toMatchObject({ model: 'flux-pro-1.1', size: '1024x768', output_format: 'png' });

    const [submit, ...rest] = bfl.requests;
    expect(submit).toMatchObject({ method: 'POST', path: '/v1/flux-pro-1.1' });
    expect(submit?.headers['x-key']).toBe(bfl.key);
    expect(JSON.parse(submit?.body ?? '{}')).toEqual({ prompt: 'A lighthouse at dawn', width: 1024, height: 768, output_format: 'png' });
    const polls = rest.filter((request) => request.path.includes('get_result'));
    expect(polls.length).toBe(3);
    for (const poll of polls) {
      expect(poll.path.startsWith(`${bfl.regionalPath}/v1/get_result?id=`)).toBe(true);
      expect(poll.headers['x-key']).toBe(bfl.key);
    }
    // The picture comes from the signed delivery URL, without the key.
    const delivery = rest.find((request) => request.path.startsWith('/delivery-eu1/'));
    expect(delivery?.headers['x-key']).toBeUndefined();

    expect(response.headers.get('x-request-cost-usd')).toBe('0.04');
    expect(await ledgerEntryOf(response.headers.get('x-request-id'))).toMatchObject({ model: 'flux-pro-1.1', provider: 'bfl', status: 200, images: 1, costNanoUsd: 40_000_000n });
  });

  it('makes n images as n tasks and serves them at the gateway’s URLs long after BFL’s have expired', async () => {
    const { data: answer, response } = await client.images
      .generate({ model: 'flux-pro-1.1', prompt: 'Two boats', n: 2, size: '512x512' as '1024x1024', output_format: 'jpeg', response_format: 'url' })
      .withResponse();
    expect(submits()).toBe(2);
    expect(answer.data).toHaveLength(2);
    const samples = [...bfl.tasks.values()].filter((task) => task.body.prompt === 'Two boats');
    expect(samples).toHaveLength(2);

    // Past BFL's ten minutes: its delivery URLs refuse, the gateway's still serve.
    bfl.advanceClock(sampleLifetimeMs + 60_000);
    const delivery = bfl.requests.find((request) => request.path.startsWith('/delivery-eu1/'));
    expect((await fetch(`${bfl.url}${delivery?.path ?? ''}`)).status).toBe(403);
    for (const item of answer.data ?? []) {
      expect(item.url?.startsWith(`${gateway.url}/v1/images/content/img_`)).toBe(true);
      const served = await fetch(item.url ?? '');
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe('image/jpeg');
      expect(await sharp(Buffer.from(await served.arrayBuffer())).metadata()).toMatchObject({ format: 'jpeg', width: 512, height: 512 });
    }
    expect(await ledgerEntryOf(response.headers.get('x-request-id'))).toMatchObject({ images: 2, costNanoUsd: 80_000_000n });
  });

  it('answers and bills the images of the tasks that succeeded when another of the same request failed', async () => {
    const { data: answer, response } = await client.images.generate({ model: 'flux-pro-1.1', prompt: 'Boats [every-other-fails]', n: 2, size: '512x512' as '1024x1024' }).withResponse();
    expect(submits()).toBe(2);
    expect(answer.data).toHaveLength(1);
    expect(await decoded(answer.data?.[0]?.b64_json)).toEqual({ format: 'png', width: 512, height: 512 });
    expect(await ledgerEntryOf(response.headers.get('x-request-id'))).toMatchObject({ images: 1, costNanoUsd: 40_000_000n });
  });

  it('bills FLUX.2 per megapixel on the megapixels BFL reports, exactly', async () => {
    const { data: answer, response } = await client.images.generate({ model: 'flux-2-pro', prompt: 'A map of the harbour', size: '1440x1024' as '1024x1024' }).withResponse();
    expect(await decoded(answer.data?.[0]?.b64_json)).toEqual({ format: 'png', width: 1440, height: 1024 });
    // The fake reports output_mp 1.47 for 1,474,560 pixels: $0.015 an image + 1.47 × $0.015 a megapixel.
    expect(response.headers.get('x-request-cost-usd')).toBe('0.03705');
    expect(await ledgerEntryOf(response.headers.get('x-request-id'))).toMatchObject({ images: 1, costNanoUsd: 37_050_000n });
  });
});

describe('FLUX Kontext edits on BFL', () => {
  it('sends the client’s image as base64 input_image with the aspect ratio of the size asked', async () => {
    const photo = await sharp({ create: { width: 800, height: 600, channels: 3, background: { r: 40, g: 90, b: 200 } } }).png().toBuffer();
    const { data: answer, response } = await client.images
      .edit({ model: 'flux-kontext-pro', prompt: 'Make it night', image: await toFile(photo, 'photo.png', { type: 'image/png' }), size: '1248x832' as '1024x1024' })
      .withResponse();
    expect(await decoded(answer.data?.[0]?.b64_json)).toEqual({ format: 'png', width: 1248, height: 832 });
    const sent = JSON.parse(bfl.requests[0]?.body ?? '{}') as Record<string, unknown>;
    expect(bfl.requests[0]?.path).toBe('/v1/flux-kontext-pro');
    expect(sent).toMatchObject({ prompt: 'Make it night', aspect_ratio: '3:2', output_format: 'png' });
    expect(Buffer.from(String(sent.input_image), 'base64').equals(photo)).toBe(true);
    expect(await ledgerEntryOf(response.headers.get('x-request-id'))).toMatchObject({ images: 1, costNanoUsd: 40_000_000n });
  });
});

describe('FLUX calls that deliver nothing cost nothing', () => {
  it('answers BFL’s moderation, before or after generating, as the client’s content-policy error, at 0', async () => {
    for (const directive of ['[request-moderated]', '[content-moderated]']) {
      const error = await refusal(client.images.generate({ model: 'flux-pro-1.1', prompt: `A harbour ${directive}` }));
      expect(error.status).toBe(400);
      expect(error.code).toBe('content_policy_violation');
      expect(error.message).toMatch(/moderation/);
      expect(await ledgerEntryOf(error.requestID)).toMatchObject({ images: 0, costNanoUsd: 0n });
    }
  });

  it('answers a failed task as an upstream error, at 0', async () => {
    const error = await refusal(client.images.generate({ model: 'flux-pro-1.1', prompt: 'A harbour [error]' }));
    expect(error.status).toBe(502);
    expect(error.message).not.toContain(bfl.url);
    expect(await ledgerEntryOf(error.requestID)).toMatchObject({ images: 0, costNanoUsd: 0n });
  });

  it('refuses sizes outside each model’s rules before anything is sent, naming the limits', async () => {
    const before = await ledgerTotal();
    const cases: [string, string, RegExp][] = [
      ['flux-pro-1.1', '1000x768', /multiples of 32/],
      ['flux-pro-1.1', '2048x1024', /1440/],
      ['flux-2-pro', '2048x4096', /2048/],
      ['flux-2-pro', '1000x1000', /multiples of 16/],
      ['flux-pro-1.1-ultra', '1024x1024', /2752x1536/],
    ];
    for (const [model, size, named] of cases) {
      const error = await refusal(client.images.generate({ model, prompt: 'A harbour', size: size as '1024x1024' }));
      expect(error.status, `${model} ${size}`).toBe(400);
      expect(error.param).toBe('size');
      expect(error.message).toMatch(named);
    }
    const quality = await refusal(client.images.generate({ model: 'flux-pro-1.1', prompt: 'A harbour', quality: 'high' }));
    expect(quality.status).toBe(400);
    expect(bfl.requests).toHaveLength(0);
    expect((await ledgerTotal()).costNanoUsd).toBe(before.costNanoUsd);
  });

  it('stops polling when the client leaves mid-poll, and charges nothing', async () => {
    const before = await ledgerTotal();
    const controller = new AbortController();
    const call = client.images.generate({ model: 'flux-pro-1.1', prompt: 'A harbour [never]' }, { signal: controller.signal }).catch((error: unknown) => error);
    const polled = (): number => bfl.requests.filter((request) => request.path.includes('get_result')).length;
    while (polled() < 2) await new Promise((resolve) => setTimeout(resolve, 10));
    controller.abort();
    await call;
    await new Promise((resolve) => setTimeout(resolve, 100));
    const after = polled();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(polled()).toBe(after);
    expect(bfl.requests.some((request) => request.path.startsWith('/delivery-eu1/'))).toBe(false);
    expect((await ledgerTotal()).costNanoUsd).toBe(before.costNanoUsd);
  });

  it('maps BFL’s 402 (no credits) to a 502 and its 429 (too many active tasks) to a 429, at 0', async () => {
    // Every attempt the gateway makes on the route is refused alike.
    bfl.refuseSubmits(402, { detail: 'Insufficient credits' }, 10);
    const credits = await refusal(client.images.generate({ model: 'flux-pro-1.1', prompt: 'A harbour' }));
    expect(credits.status).toBe(502);
    expect(credits.message).toMatch(/credits/);
    expect(await ledgerEntryOf(credits.requestID)).toMatchObject({ costNanoUsd: 0n });
    bfl.refuseSubmits(0, undefined, 0);

    bfl.refuseSubmits(429, { detail: 'Too many active tasks' }, 10);
    const busy = await refusal(client.images.generate({ model: 'flux-pro-1.1', prompt: 'A harbour' }));
    expect(busy.status).toBe(429);
    expect(busy.message).toMatch(/active tasks/);
    bfl.refuseSubmits(0, undefined, 0);
    expect(await ledgerEntryOf(busy.requestID)).toMatchObject({ costNanoUsd: 0n });
  });

  it('fails a task that is never ready within images.job_timeout_ms with a 504, at 0', async () => {
    const impatient = await startTestGateway({
      providers: { bfl: { type: 'bfl', base_url: bfl.url, api_key: bfl.key } },
      images: { job_poll_interval_ms: 20, job_timeout_ms: 300 },
      models: [{ id: 'flux-pro-1.1', output_modality: 'image', routes: [{ provider: 'bfl', model: 'flux-pro-1.1' }] }],
    });
    try {
      const impatientClient = new OpenAI({ baseURL: `${impatient.url}/v1`, apiKey: 'unused', maxRetries: 0 });
      const error = await refusal(impatientClient.images.generate({ model: 'flux-pro-1.1', prompt: 'A harbour [never]' }));
      expect(error.status).toBe(504);
      await impatient.services.ledger.flush();
      const entries = await impatient.services.storage.ledger.list({ limit: 10 });
      expect(entries.map((entry) => entry.costNanoUsd)).toEqual([0n]);
    } finally {
      await impatient.close();
    }
  });
});

describe('a budget on FLUX.2, priced per megapixel', () => {
  it('reserves the largest image the request allows: refused before anything is sent when that does not fit', async () => {
    const budgeted = await startTestGateway({
      providers: { bfl: { type: 'bfl', base_url: bfl.url, api_key: bfl.key } },
      images: { job_poll_interval_ms: 20 },
      models: [{ id: 'flux-2-pro', output_modality: 'image', routes: [{ provider: 'bfl', model: 'flux-2-pro' }] }],
    });
    try {
      // $0.05: a 1024×1024 image reserves $0.015 + 1.048576 × $0.015; no size reserves 4 MP, $0.07791456.
      const { secret } = await insertLimitedKey(budgeted.services.storage, { budgetNanoUsd: 50_000_000n });
      const keyed = new OpenAI({ baseURL: `${budgeted.url}/v1`, apiKey: secret, maxRetries: 0 });
      const refused = await refusal(keyed.images.generate({ model: 'flux-2-pro', prompt: 'A harbour' }));
      expect(refused.status).toBe(402);
      expect(bfl.requests).toHaveLength(0);
      const { data: answer, response } = await keyed.images.generate({ model: 'flux-2-pro', prompt: 'A harbour', size: '1024x1024' }).withResponse();
      expect(await decoded(answer.data?.[0]?.b64_json)).toMatchObject({ width: 1024, height: 1024 });
      // BFL reports 1.05 MP for 1,048,576 pixels: $0.015 + 1.05 × $0.015.
      expect(response.headers.get('x-request-cost-usd')).toBe('0.03075');
    } finally {
      await budgeted.close();
    }
  });
});

describe('FLUX models in discovery', () => {
  it('lists each model’s dimension rules or sizes, and its price per image or per megapixel', async () => {
    const listed = (await (await fetch(`${gateway.url}/v1/images/models`)).json()) as { data: { id: string; parameters: Record<string, unknown>; pricing: Record<string, unknown> }[] };
    const byId = new Map(listed.data.map((model) => [model.id, model]));
    expect(byId.get('flux-pro-1.1')?.parameters).toMatchObject({ dimensions: { min_width: 256, max_width: 1440, multiple_of: 32 }, max_n: 4, edits: false, output_formats: ['png', 'jpeg'] });
    expect(byId.get('flux-pro-1.1')?.parameters).not.toHaveProperty('sizes');
    expect(byId.get('flux-pro-1.1-ultra')?.parameters).toMatchObject({ sizes: expect.arrayContaining(['2752x1536', '2048x2048']) });
    expect(byId.get('flux-kontext-pro')?.parameters).toMatchObject({ edits: true, max_input_images: 1 });
    expect(byId.get('flux-2-pro')?.parameters).toMatchObject({ dimensions: { max_width: 2048, multiple_of: 16, max_pixels: 4_194_304 }, max_input_images: 8 });
    expect(byId.get('flux-pro-1.1')?.pricing).toMatchObject({ priced: true, tiers: [{ quality: 'standard', size: 'any', usd_per_image: '0.04' }] });
    expect(byId.get('flux-2-pro')?.pricing).toMatchObject({ priced: true, usd_per_megapixel: '0.015', tiers: [{ size: 'any', usd_per_image: '0.015' }] });
  });
});

describe('FLUX on the simulator', () => {
  it('plays BFL’s tasks with real pictures of the size each makes, and its moderation', async () => {
    const simulated = await startTestGateway({
      providers: { 'sim-bfl': { type: 'bfl', base_url: 'builtin:sim', api_key: 'any' } },
      images: { job_poll_interval_ms: 20 },
      models: ['flux-kontext-pro', 'flux-2-pro'].map((id) => ({ id, output_modality: 'image', routes: [{ provider: 'sim-bfl', model: id }] })),
    });
    try {
      const simClient = new OpenAI({ baseURL: `${simulated.url}/v1`, apiKey: 'unused', maxRetries: 0 });
      const kontext = await simClient.images.generate({ model: 'flux-kontext-pro', prompt: 'A harbour', size: '1392x752' as '1024x1024', output_format: 'jpeg' });
      expect(await decoded(kontext.data?.[0]?.b64_json)).toEqual({ format: 'jpeg', width: 1392, height: 752 });
      const flux2 = await simClient.images.generate({ model: 'flux-2-pro', prompt: 'A harbour', size: '768x512' as '1024x1024' });
      expect(await decoded(flux2.data?.[0]?.b64_json)).toEqual({ format: 'png', width: 768, height: 512 });
      const refused = await refusal(simClient.images.generate({ model: 'flux-2-pro', prompt: 'A harbour [refuse]' }));
      expect(refused.status).toBe(400);
      expect(refused.code).toBe('content_policy_violation');
    } finally {
      await simulated.close();
    }
  });
});
