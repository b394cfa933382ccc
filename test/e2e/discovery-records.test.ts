import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ScriptedUpstream, startScriptedUpstream } from '../support/scripted-upstream/index.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';

/**
 * The records of docs/api.md, "Discovery", for a config with text, image and video models: the
 * discovery lists, the pricing records field by field, image and video model records.
 */

let upstream: ScriptedUpstream;
let gateway: TestGateway;

function config(): Record<string, unknown> {
  return {
    providers: {
      // Hosted providers with credentials, pointed at a fake so nothing could leave the machine.
      openai: { type: 'openai', base_url: `${upstream.url}/v1`, api_key: 'upstream-openai-secret' },
      gemini: { type: 'gemini', base_url: upstream.url, api_key: 'upstream-gemini-secret' },
      local: { type: 'openai-compatible', base_url: `${upstream.url}/v1` },
    },
    models: [
      {
        id: 'house-text',
        aliases: ['house'],
        routes: [{ provider: 'local', model: 'house-v1' }],
        price: [
          { effective_from: '2026-01-01', input_per_mtok: '3.00', output_per_mtok: '15.00', cache_read_per_mtok: '0.30', cache_write_per_mtok: '3.75' },
          { effective_from: '2099-01-01', input_per_mtok: '2.50', output_per_mtok: '12.00' },
        ],
      },
      { id: 'free-text', routes: [{ provider: 'local', model: 'free-v1' }] },
      {
        id: 'gpt-image-1.5',
        output_modality: 'image',
        legacy_aliases: ['dall-e-3'],
        routes: [{ provider: 'openai', model: 'gpt-image-1.5' }],
      },
      { id: 'marked-image', output_modality: 'image', routes: [{ provider: 'openai', model: 'gpt-image-1' }], price: { markup_percent: '10' } },
      {
        id: 'veo-3.1',
        output_modality: 'video',
        routes: [{ provider: 'gemini', model: 'veo-3.1-generate-preview' }],
        video: {
          variants: [
            { mode: 'text-to-video', resolution: '720p', aspect_ratio: '16:9', seconds: [4, 6, 8], usd_per_second: '0.40' },
            { mode: 'text-to-video', resolution: '720p', aspect_ratio: '9:16', seconds: [4, 6, 8], usd_per_second: '0.40' },
            { mode: 'image-to-video', resolution: '1080p', aspect_ratio: '16:9', seconds: [8] },
          ],
        },
        price: { effective_from: '2026-01-01' },
      },
      {
        id: 'unsold-video',
        output_modality: 'video',
        routes: [{ provider: 'openai', model: 'house-video' }],
        video: { variants: [{ mode: 'text-to-video', resolution: '720p', aspect_ratio: '16:9', seconds: [4] }] },
      },
    ],
  };
}

beforeAll(async () => {
  upstream = await startScriptedUpstream();
  gateway = await startTestGateway(config());
});
afterAll(async () => {
  await gateway.close();
  await upstream.close();
});

async function getJson(path: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${gateway.url}${path}`);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function pricing(query: string): Promise<Record<string, unknown>[]> {
  const { status, body } = await getJson(`/v1/models/pricing${query}`);
  expect(status).toBe(200);
  expect(body.object).toBe('list');
  return body.data as Record<string, unknown>[];
}

describe('discovery for text, image and video models', () => {
  it('lists callable models by output modality through the openai SDK', async () => {
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'anything' });
    const ids = async (modalities?: string): Promise<string[]> =>
      (await client.models.list(modalities === undefined ? undefined : { query: { output_modalities: modalities } })).data.map((model) => model.id).sort();
    expect(await ids()).toEqual(['free-text', 'house-text']);
    expect(await ids('image')).toEqual(['gpt-image-1.5', 'marked-image']);
    // A video model whose variants all lack a price is not sold, so not listed.
    expect(await ids('video')).toEqual(['veo-3.1']);
    expect(await ids('all')).toEqual(['free-text', 'gpt-image-1.5', 'house-text', 'marked-image', 'veo-3.1']);
    const retrieved = await client.models.retrieve('veo-3.1');
    expect(retrieved).toMatchObject({ id: 'veo-3.1', object: 'model', owned_by: 'google', output_modality: 'video' });
  });

  it('publishes a text price with its scheduled successor, and an unpriced model as unpriced', async () => {
    const [house] = await pricing('?model=house');
    expect(house).toEqual({
      object: 'model.pricing',
      model: 'house-text',
      output_modality: 'text',
      priced: true,
      currency: 'USD',
      effective_from: '2026-01-01',
      text: {
        input_usd_per_mtok: '3.00',
        output_usd_per_mtok: '15.00',
        cache_read_usd_per_mtok: '0.30',
        cache_write_usd_per_mtok: '3.75',
        cache_write_1h_usd_per_mtok: '3.75',
        reasoning_usd_per_mtok: '15.00',
      },
      scheduled: [
        {
          effective_from: '2099-01-01',
          text: {
            input_usd_per_mtok: '2.50',
            output_usd_per_mtok: '12.00',
            cache_read_usd_per_mtok: '2.50',
            cache_write_usd_per_mtok: '2.50',
            cache_write_1h_usd_per_mtok: '2.50',
            reasoning_usd_per_mtok: '12.00',
          },
        },
      ],
    });
    const [free] = await pricing('?model=free-text');
    expect(free).toEqual({ object: 'model.pricing', model: 'free-text', output_modality: 'text', priced: false });
  });

  it('publishes image tiers from the built-in record, marked up where the config says', async () => {
    const [image] = await pricing('?model=gpt-image-1.5');
    expect(image).toMatchObject({ object: 'model.pricing', model: 'gpt-image-1.5', output_modality: 'image', priced: true, currency: 'USD', scheduled: [] });
    const tiers = (image?.image as { tiers: unknown[] }).tiers;
    expect(tiers).toHaveLength(9);
    expect(tiers).toContainEqual({ quality: 'high', size: '1024x1024', usd_per_image: '0.133' });
    const [marked] = await pricing('?model=marked-image');
    // gpt-image-1 low 1024x1024 lists at 0.011; +10 % is 0.0121, exactly.
    expect((marked?.image as { tiers: unknown[] }).tiers).toContainEqual({ quality: 'low', size: '1024x1024', usd_per_image: '0.0121' });
  });

  it('resolves a legacy alias in ?model= to the model that serves it', async () => {
    const records = await pricing('?model=dall-e-3');
    expect(records.map((record) => record.model)).toEqual(['gpt-image-1.5']);
  });

  it('publishes only the priced video variants, with lengths as strings', async () => {
    const [veo] = await pricing('?model=veo-3.1');
    expect(veo).toEqual({
      object: 'model.pricing',
      model: 'veo-3.1',
      output_modality: 'video',
      priced: true,
      currency: 'USD',
      effective_from: '2026-01-01',
      video: {
        variants: [
          { mode: 'text-to-video', resolution: '720p', aspect_ratio: '16:9', size: '1280x720', seconds: ['4', '6', '8'], usd_per_second: '0.40' },
          { mode: 'text-to-video', resolution: '720p', aspect_ratio: '9:16', size: '720x1280', seconds: ['4', '6', '8'], usd_per_second: '0.40' },
        ],
      },
      scheduled: [],
    });
  });

  it('filters pricing by modality and refuses an unknown one naming the choices', async () => {
    expect((await pricing('?output_modalities=video')).map((record) => record.model)).toEqual(['veo-3.1']);
    expect((await pricing('')).map((record) => record.model).sort()).toEqual(['free-text', 'gpt-image-1.5', 'house-text', 'marked-image', 'veo-3.1']);
    const bad = await getJson('/v1/models/pricing?output_modalities=sound');
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: { param: 'output_modalities', code: 'invalid_field' } });
    expect((bad.body.error as { message: string }).message).toContain('text, image, video, all');
    expect((await getJson('/v1/models/pricing?model=unknown')).status).toBe(404);
  });

  it('answers /v1/images/models with rules, the legacy alias and its mapping, and prices', async () => {
    const { status, body } = await getJson('/v1/images/models');
    expect(status).toBe(200);
    const record = (body.data as Record<string, unknown>[]).find((model) => model.id === 'gpt-image-1.5');
    expect(record).toMatchObject({
      id: 'gpt-image-1.5',
      object: 'image_model',
      owned_by: 'openai',
      legacy_aliases: [
        {
          id: 'dall-e-3',
          mapping: { quality: { standard: 'medium', hd: 'high' }, size: { '1024x1024': '1024x1024', '1792x1024': '1536x1024', '1024x1792': '1024x1536' }, dropped: ['style'] },
          parameters: { sizes: ['1024x1024', '1792x1024', '1024x1792'], qualities: ['standard', 'hd'], max_n: 1, styles: ['vivid', 'natural'], default_response_format: 'url' },
        },
      ],
      parameters: {
        sizes: ['1024x1024', '1536x1024', '1024x1536', 'auto'],
        qualities: ['low', 'medium', 'high', 'auto'],
        max_n: 10,
        response_formats: ['b64_json', 'url'],
        output_formats: ['png', 'jpeg', 'webp'],
        backgrounds: ['transparent', 'opaque', 'auto'],
        styles: [],
        streaming: true,
      },
      pricing: { priced: true, effective_from: '2025-12-16' },
    });
  });

  it('answers /v1/videos/models with only sellable variants and the lists derived from them', async () => {
    const { status, body } = await getJson('/v1/videos/models');
    expect(status).toBe(200);
    expect(body.data).toEqual([
      {
        id: 'veo-3.1',
        object: 'video_model',
        owned_by: 'google',
        modes: ['text-to-video'],
        resolutions: ['720p'],
        durations: ['4', '6', '8'],
        aspect_ratios: ['16:9', '9:16'],
        remix: false,
        variants: [
          { mode: 'text-to-video', resolution: '720p', aspect_ratio: '16:9', size: '1280x720', seconds: ['4', '6', '8'], usd_per_second: '0.40' },
          { mode: 'text-to-video', resolution: '720p', aspect_ratio: '9:16', size: '720x1280', seconds: ['4', '6', '8'], usd_per_second: '0.40' },
        ],
        defaults: [{ mode: 'text-to-video', size: '1280x720', resolution: '720p', aspect_ratio: '16:9', seconds: '4' }],
      },
    ]);
  });

  it('serves the /v1-only endpoints only under /v1', async () => {
    for (const path of ['/models/pricing', '/images/models', '/videos/models']) {
      const { status, body } = await getJson(path);
      expect(status, path).toBe(404);
      expect(body).toMatchObject({ error: { code: 'not_found' } });
    }
  });
});
