import { describe, expect, it } from 'vitest';
import { configSchema } from '../config/config-schema.js';
import { ModelCatalog } from './model-catalog.js';
import { priceAt } from './pricing/price-schedule.js';
import { sellableVariants } from './sellable-variants.js';

const providers = { replicate: { type: 'replicate', api_key: 'r8_key' } };

function catalog(models: unknown[]): ModelCatalog {
  return new ModelCatalog(configSchema.parse({ providers, models }), { now: new Date('2026-06-01T00:00:00Z') });
}

const kling = { id: 'kling', output_modality: 'video', routes: [{ provider: 'replicate', model: 'kwaivgi/kling-v2.1' }] };

describe('video models a route knows by its own id', () => {
  it('take the variants of the route’s built-in input map, and sell those the config prices', () => {
    const model = catalog([{ ...kling, price: { effective_from: '2026-01-01', per_second: { 'image-to-video/1080p/16:9': '0.09' } } }]).find('kling');
    expect(model?.ownedBy).toBe('kwaivgi');
    expect(model?.video?.variants.every((variant) => variant.mode === 'image-to-video')).toBe(true);
    const sold = sellableVariants(model?.video ?? { variants: [], remix: false, maxInputReferenceBytes: 0 }, priceAt(model?.prices, new Date('2026-06-01T00:00:00Z')));
    expect(sold.map((variant) => `${variant.mode} ${variant.size} ${variant.seconds.join('/')}`)).toEqual(['image-to-video 1920x1080 5/10']);
    expect(model?.callable).toBe(true);
  });

  it('are not sold while no variant has a price', () => {
    expect(catalog([kling]).find('kling')?.callable).toBe(false);
  });

  it('refuse at load a configured variant the map cannot express, naming it', () => {
    const textToVideo = { mode: 'text-to-video', resolution: '720p', aspect_ratio: '16:9', seconds: [5], usd_per_second: '0.05' };
    expect(() => catalog([{ ...kling, video: { variants: [textToVideo] } }])).toThrow(/models\[0\]\.routes\[0\]\.model: Replicate's kwaivgi\/kling-v2\.1 cannot be asked for text-to-video 720p 16:9/);
    const tooLong = { ...textToVideo, mode: 'image-to-video', seconds: [5, 15] };
    expect(() => catalog([{ ...kling, video: { variants: [tooLong] } }])).toThrow(/not 15/);
  });

  it('refuse at load a route whose model is no Replicate model reference', () => {
    const variants = [{ mode: 'text-to-video', resolution: '720p', aspect_ratio: '16:9', seconds: [5], usd_per_second: '0.05' }];
    expect(() => catalog([{ id: 'odd', output_modality: 'video', routes: [{ provider: 'replicate', model: 'not a model' }], video: { variants } }])).toThrow(/models\[0\]\.routes\[0\]\.model: .*neither owner\/name/);
  });

  it('leave a model without a built-in map to its configured variants', () => {
    const variants = [{ mode: 'text-to-video', resolution: '1080p', aspect_ratio: '21:9', seconds: [7], usd_per_second: '0.05' }];
    const model = catalog([{ id: 'community', output_modality: 'video', routes: [{ provider: 'replicate', model: 'someone/their-video-model' }], video: { variants } }]).find('community');
    expect(model?.video?.variants).toHaveLength(1);
  });
});
