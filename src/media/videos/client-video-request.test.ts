import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../errors/gateway-error.js';
import { decodeVideoForm, decodeVideoJson } from './client-video-request.js';

const png = { bytes: new Uint8Array([0x89, 0x50, 0x4e, 0x47]), mediaType: 'image/png', filename: 'frame.png' };

function paramOf(call: () => unknown): string | undefined {
  try {
    call();
  } catch (error) {
    if (error instanceof GatewayError) return error.param;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('decoding a video submit', () => {
  it('reads the SDK form: seconds as a string, the reference as a file or an image_url field', () => {
    expect(decodeVideoForm({ fields: { model: 'm', prompt: 'p', seconds: '8', size: '1280x720' }, files: [] })).toEqual({ model: 'm', prompt: 'p', seconds: 8, size: '1280x720' });
    expect(decodeVideoForm({ fields: { prompt: 'p' }, files: [{ field: 'input_reference', file: png }] }).inputReference).toBe(png);
    expect(decodeVideoForm({ fields: { prompt: 'p', 'input_reference[image_url]': 'https://example.com/a.png' }, files: [] }).inputReference).toEqual({ url: 'https://example.com/a.png' });
  });

  it('reads JSON with a numeric seconds, resolution, aspect ratio and a data URL reference', () => {
    const decoded = decodeVideoJson({ prompt: 'p', seconds: 4, resolution: '720p', aspect_ratio: '9:16', input_reference: { image_url: 'data:image/png;base64,iVBORw==' } });
    expect(decoded).toMatchObject({ seconds: 4, resolution: '720p', aspectRatio: '9:16' });
    expect(decoded.inputReference).toMatchObject({ mediaType: 'image/png' });
  });

  it.each([
    [{ prompt: '' }, 'prompt'],
    [{ prompt: 'p', seconds: '4.5' }, 'seconds'],
    [{ prompt: 'p', seconds: 0 }, 'seconds'],
    [{ prompt: 'p', size: '1280*720' }, 'size'],
    [{ prompt: 'p', resolution: 'hd' }, 'resolution'],
    [{ prompt: 'p', aspect_ratio: 'wide' }, 'aspect_ratio'],
    [{ prompt: 'p', quality: 'high' }, 'quality'],
    [{ prompt: 'p', input_reference: { image_url: 'ftp://x' } }, 'input_reference.image_url'],
  ])('refuses %j naming %s', (body, param) => {
    expect(paramOf(() => decodeVideoJson(body))).toBe(param);
  });

  it('refuses two references and unknown file fields', () => {
    expect(paramOf(() => decodeVideoForm({ fields: { prompt: 'p' }, files: [{ field: 'input_reference', file: png }, { field: 'input_reference', file: png }] }))).toBe('input_reference');
    expect(paramOf(() => decodeVideoForm({ fields: { prompt: 'p' }, files: [{ field: 'image', file: png }] }))).toBe('image');
  });
});
