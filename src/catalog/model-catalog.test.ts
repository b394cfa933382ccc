import { describe, expect, it } from 'vitest';
import { configSchema } from '../config/config-schema.js';
import { ModelCatalog, type TokenPriceDefaults } from './model-catalog.js';
import { costNanoUsd } from './pricing/cost.js';
import { parseUsdToPico } from './pricing/decimal-usd.js';
import { priceAt } from './pricing/price-schedule.js';

const providers = { local: { type: 'openai-compatible', base_url: 'http://127.0.0.1:9/v1' }, openai: { type: 'openai', api_key: 'k' } };

function catalog(models: unknown[], tokenPriceDefaults?: TokenPriceDefaults): ModelCatalog {
  const config = configSchema.parse({ providers, models });
  return new ModelCatalog(config, { now: new Date('2026-06-01T00:00:00Z'), ...(tokenPriceDefaults === undefined ? {} : { tokenPriceDefaults }) });
}

const flat = (usd: string) => ({ base: parseUsdToPico(usd), tiers: [] });
const datasetPrice: TokenPriceDefaults = (_kind, modelId) =>
  modelId === 'known-upstream'
    ? {
        entries: [{ effectiveFrom: '2025-01-01', text: { input: flat('2'), output: flat('8'), cacheRead: flat('0.5'), cacheWrite: flat('2'), cacheWriteOneHour: flat('2'), reasoning: flat('8') } }],
        source: 'vendor-dataset',
        origin: { provider: 'openai', model: 'known-upstream', lookedUp: modelId },
      }
    : undefined;
const million = { inputUncached: 1_000_000, cacheRead: 0, cacheWrite: 0, output: 0, reasoning: 0 };

describe('the model catalog', () => {
  it('prices a call at the price in force when it was made', () => {
    const model = catalog([
      {
        id: 'm',
        routes: [{ provider: 'local', model: 'x' }],
        price: [
          { effective_from: '2026-01-01', input_per_mtok: '3.00', output_per_mtok: '15.00' },
          { effective_from: '2026-07-01', input_per_mtok: '2.00', output_per_mtok: '10.00' },
        ],
      },
    ]).find('m');
    const before = priceAt(model?.prices, new Date('2026-06-30T23:59:59.999Z'));
    const after = priceAt(model?.prices, new Date('2026-07-01T00:00:00.000Z'));
    expect(costNanoUsd(before, { tokens: million })).toBe(3_000_000_000n);
    expect(costNanoUsd(after, { tokens: million })).toBe(2_000_000_000n);
    expect(model?.created).toBe(Date.parse('2026-01-01T00:00:00Z') / 1000);
  });

  it('takes token prices from the dataset when the config gives none, and marks them up', () => {
    const models = catalog(
      [
        { id: 'plain', routes: [{ provider: 'openai', model: 'known-upstream' }] },
        { id: 'marked', routes: [{ provider: 'openai', model: 'known-upstream' }], price: { markup_percent: '25' } },
        { id: 'unknown', routes: [{ provider: 'openai', model: 'unknown-upstream' }] },
      ],
      datasetPrice,
    );
    const at = new Date('2026-06-01T00:00:00Z');
    expect(models.find('plain')?.prices?.source).toBe('vendor-dataset');
    expect(models.find('marked')?.prices).toMatchObject({ source: 'vendor-dataset', origin: { provider: 'openai', model: 'known-upstream' } });
    expect(costNanoUsd(priceAt(models.find('plain')?.prices, at), { tokens: million })).toBe(2_000_000_000n);
    expect(costNanoUsd(priceAt(models.find('marked')?.prices, at), { tokens: million })).toBe(2_500_000_000n);
    expect(models.find('unknown')?.prices).toBeUndefined();
  });

  it('gives a later route its own prices when the dataset prices it at another row, unless the config sets the rates', () => {
    const rows: TokenPriceDefaults = (kind, modelId) => {
      const known = datasetPrice(kind, 'known-upstream');
      if (known === undefined) return undefined;
      if (modelId === 'known-upstream') return known;
      if (modelId !== 'dearer-upstream') return undefined;
      const dearer = { ...known.entries[0]?.text, input: flat('4') } as NonNullable<(typeof known.entries)[0]['text']>;
      return { entries: [{ effectiveFrom: '2025-01-01', text: dearer }], source: 'cloud-dataset', origin: { provider: 'aws', model: 'dearer-upstream', lookedUp: modelId } };
    };
    const routes = [
      { provider: 'openai', model: 'known-upstream' },
      { provider: 'openai', model: 'dearer-upstream' },
      { provider: 'openai', model: 'known-upstream' },
    ];
    const models = catalog(
      [
        { id: 'two-rows', routes },
        { id: 'marked', routes, price: { markup_percent: '50' } },
        { id: 'operator', routes, price: { input_per_mtok: '1.00', output_per_mtok: '1.00' } },
      ],
      rows,
    );
    const at = new Date('2026-06-01T00:00:00Z');
    const inputCost = (prices: Parameters<typeof priceAt>[0]) => costNanoUsd(priceAt(prices, at), { tokens: million });
    const twoRows = models.find('two-rows');
    expect(twoRows?.routes.map((route) => route.prices?.source)).toEqual([undefined, 'cloud-dataset', undefined]);
    expect(inputCost(twoRows?.prices)).toBe(2_000_000_000n);
    expect(inputCost(twoRows?.routes[1]?.prices)).toBe(4_000_000_000n);
    expect(inputCost(models.find('marked')?.routes[1]?.prices)).toBe(6_000_000_000n);
    expect(models.find('operator')?.routes.every((route) => route.prices === undefined)).toBe(true);
  });

  it('resolves a legacy alias to the image model that serves it, with the legacy rules', () => {
    const models = catalog([{ id: 'gpt-image-1.5', output_modality: 'image', legacy_aliases: ['dall-e-3'], routes: [{ provider: 'openai', model: 'gpt-image-1.5' }] }]);
    expect(models.find('dall-e-3')?.id).toBe('gpt-image-1.5');
    expect(models.legacyImageAlias('dall-e-3')?.rules).toMatchObject({ maxN: 1, qualities: ['standard', 'hd'], defaultResponseFormat: 'url' });
    expect(models.legacyImageAlias('gpt-image-1.5')).toBeUndefined();
  });

  it('lets the config override any field of a built-in image record', () => {
    const models = catalog([{ id: 'gpt-image-1', output_modality: 'image', routes: [{ provider: 'openai', model: 'gpt-image-1' }], image: { max_n: 2, sizes: ['1024x1024'] } }]);
    expect(models.find('gpt-image-1')?.image?.rules).toMatchObject({ maxN: 2, sizes: ['1024x1024'], qualities: ['low', 'medium', 'high', 'auto'] });
  });

  it('does not sell a video model whose variants have no price', () => {
    const models = catalog([
      { id: 'v', output_modality: 'video', routes: [{ provider: 'openai', model: 'v' }], video: { variants: [{ mode: 'text-to-video', resolution: '720p', aspect_ratio: '16:9', seconds: [4] }] } },
    ]);
    expect(models.find('v')?.callable).toBe(false);
  });

  it.each([
    [[{ id: 'i', output_modality: 'image', routes: [{ provider: 'openai', model: 'own-image' }] }], 'models[0].image'],
    [[{ id: 'i', output_modality: 'image', legacy_aliases: ['dall-e-9'], routes: [{ provider: 'openai', model: 'gpt-image-1' }] }], 'models[0].legacy_aliases[0]'],
    [[{ id: 'v', output_modality: 'video', routes: [{ provider: 'openai', model: 'own-video' }] }], 'models[0].video.variants'],
    [[{ id: 't', legacy_aliases: ['dall-e-3'], routes: [{ provider: 'openai', model: 'x' }] }], 'models[0].legacy_aliases'],
    [
      [{ id: 't', routes: [{ provider: 'local', model: 'x' }], price: [{ effective_from: '2026-01-01', input_per_mtok: '1' }, { effective_from: '2026-01-01', input_per_mtok: '2' }] }],
      'models[0].price',
    ],
  ])('refuses a model it cannot sell, naming the field (%#)', (models, field) => {
    expect(() => catalog(models)).toThrow(field);
  });
});
