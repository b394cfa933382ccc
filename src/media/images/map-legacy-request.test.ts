import { describe, expect, it } from 'vitest';
import type { ImageRules, LegacyImageAlias } from '../../catalog/records/image-model-record.js';
import { mapLegacyRequest } from './map-legacy-request.js';

const dallE3 = {
  id: 'dall-e-3',
  rules: { defaultResponseFormat: 'url' },
  mapping: { quality: { standard: 'medium', hd: 'high' }, size: { '1792x1024': '1536x1024' }, dropped: ['style'] },
} as unknown as LegacyImageAlias;

const current = { responseFormats: ['b64_json', 'url'], defaultResponseFormat: 'b64_json' } as unknown as ImageRules;

describe('a legacy request in the current model’s terms', () => {
  it('maps quality and size, drops style and keeps the legacy default of URLs', () => {
    expect(mapLegacyRequest({ prompt: 'p', quality: 'hd', size: '1792x1024', style: 'vivid' }, dallE3, current)).toEqual({
      prompt: 'p',
      quality: 'high',
      size: '1536x1024',
      response_format: 'url',
    });
  });

  it('keeps an explicit response format and values with no mapping', () => {
    expect(mapLegacyRequest({ prompt: 'p', size: '1024x1024', response_format: 'b64_json' }, dallE3, current)).toEqual({ prompt: 'p', size: '1024x1024', response_format: 'b64_json' });
  });

  it('falls back to the current model’s default when it cannot answer with URLs', () => {
    const base64Only = { responseFormats: ['b64_json'], defaultResponseFormat: 'b64_json' } as unknown as ImageRules;
    expect(mapLegacyRequest({ prompt: 'p' }, dallE3, base64Only)).toEqual({ prompt: 'p', response_format: 'b64_json' });
  });
});
