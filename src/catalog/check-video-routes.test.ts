import { describe, expect, it } from 'vitest';
import { configSchema } from '../config/config-schema.js';
import { ConfigError } from '../config/load-config.js';
import { ModelCatalog } from './model-catalog.js';

const providers = { fal: { type: 'fal', api_key: 'k' }, openai: { type: 'openai', api_key: 'k' } };
const variant = (mode: string, seconds: number[] = [5]) => ({ mode, resolution: '720p', aspect_ratio: '16:9', seconds, usd_per_second: '0.10' });

function start(models: unknown[]): ModelCatalog {
  return new ModelCatalog(configSchema.parse({ providers, models }), { now: new Date('2026-12-01T00:00:00Z') });
}

function refusal(models: unknown[]): string {
  try {
    start(models);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('the config was accepted');
}

describe('video routes checked at start', () => {
  it('takes a fal endpoint the gateway knows with its built-in variants and list price', () => {
    const model = start([{ id: 'kling', output_modality: 'video', routes: [{ provider: 'fal', model: 'fal-ai/kling-video/v2.1/master/text-to-video' }] }]).find('kling');
    expect(model?.callable).toBe(true);
    expect(model?.video?.variants.map((sold) => `${sold.mode} ${sold.resolution} ${sold.aspectRatio} ${sold.seconds.join('/')}`)).toEqual([
      'text-to-video 1080p 16:9 5/10',
      'text-to-video 1080p 9:16 5/10',
      'text-to-video 1080p 1:1 5/10',
    ]);
  });

  it('refuses an endpoint it does not know without an input map, naming the route\'s input', () => {
    expect(refusal([{ id: 'x', output_modality: 'video', routes: [{ provider: 'fal', model: 'acme/video' }], video: { variants: [variant('text-to-video')] } }])).toMatch(/^models\[0\]\.routes\[0\]\.input: .*no built-in input map/);
  });

  it('refuses an image-to-video variant whose map has no field for the first frame', () => {
    const input = { prompt: '{prompt}', duration: '{seconds:string}' };
    expect(refusal([{ id: 'x', output_modality: 'video', routes: [{ provider: 'fal', model: 'acme/video', input }], video: { variants: [variant('image-to-video')] } }])).toMatch(
      /^models\[0\]\.routes\[0\]\.input: the model sells image-to-video .* no field is filled from \{input_reference\}/,
    );
  });

  it('refuses lengths the map cannot carry, and a map that never sends the prompt', () => {
    expect(refusal([{ id: 'x', output_modality: 'video', routes: [{ provider: 'fal', model: 'acme/video', input: { prompt: '{prompt}' } }], video: { variants: [variant('text-to-video', [5, 10])] } }])).toContain('no field is filled from {seconds}');
    expect(refusal([{ id: 'x', output_modality: 'video', routes: [{ provider: 'fal', model: 'acme/video', input: { text: 'hello' } }], video: { variants: [variant('text-to-video')] } }])).toContain('{prompt}');
  });

  it('refuses a template it cannot read, naming the field', () => {
    expect(refusal([{ id: 'x', output_modality: 'video', routes: [{ provider: 'fal', model: 'acme/video', input: { prompt: '{prompt}', duration: '{length}' } }], video: { variants: [variant('text-to-video')] } }])).toMatch(
      /^models\[0\]\.routes\[0\]\.input\.duration: unknown placeholder \{length\}/,
    );
  });

  it('refuses a variant a known endpoint does not make, naming the route\'s model', () => {
    const models = [{ id: 'veo', output_modality: 'video', routes: [{ provider: 'fal', model: 'fal-ai/veo3.1' }], video: { variants: [{ ...variant('text-to-video', [5]), resolution: '720p' }] } }];
    expect(refusal(models)).toMatch(/^models\[0\]\.routes\[0\]\.model: fal-ai\/veo3\.1 makes videos of 4\/6\/8 s, not 5 s/);
  });

  it('refuses an input map on a route whose upstream writes its own fields', () => {
    expect(refusal([{ id: 'x', output_modality: 'video', routes: [{ provider: 'openai', model: 'sora-2', input: { prompt: '{prompt}' } }] }])).toMatch(/^models\[0\]\.routes\[0\]\.input: a openai provider takes no input map/);
    expect(refusal([{ id: 't', routes: [{ provider: 'fal', model: 'acme/text', input: { prompt: '{prompt}' } }] }])).toMatch(/routes\[0\]\.input: only video models/);
  });
});
