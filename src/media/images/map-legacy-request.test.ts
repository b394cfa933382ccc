import { describe, expect, it } from 'vitest';
import type { LegacyImageAlias } from '../../catalog/records/image-model-record.js';
import { mapLegacyRequest } from './map-legacy-request.js';

const dallE3 = {
  id: 'dall-e-3',
  rules: { defaultResponseFormat: 'url' },
  mapping: { quality: { standard: 'medium', hd: 'high' }, size: { '1792x1024': '1536x1024' }, dropped: ['style'] },
} as unknown as LegacyImageAlias;

describe('a legacy request in the current model’s terms', () => {
  it('maps quality and size, drops style and keeps the legacy default of URLs', () => {
    expect(mapLegacyRequest({ prompt: 'p', quality: 'hd', size: '1792x1024', style: 'vivid' }, dallE3)).toEqual({
      prompt: 'p',
      quality: 'high',
      size: '1536x1024',
      response_format: 'url',
    });
  });

  it('keeps an explicit response format and values with no mapping', () => {
    expect(mapLegacyRequest({ prompt: 'p', size: '1024x1024', response_format: 'b64_json' }, dallE3)).toEqual({ prompt: 'p', size: '1024x1024', response_format: 'b64_json' });
  });
});
