import { describe, expect, it } from 'vitest';
import type { SellableVariant } from '../../catalog/sellable-variants.js';
import { GatewayError } from '../../errors/gateway-error.js';
import { selectVideoVariant } from './select-video-variant.js';

function variant(mode: SellableVariant['mode'], resolution: string, aspectRatio: string, size: string, seconds: number[]): SellableVariant {
  return { mode, resolution, aspectRatio, size, seconds, price: { mode, resolution, aspectRatio, perSecond: 100_000_000_000n } };
}

const sold = [
  variant('text-to-video', '720p', '16:9', '1280x720', [4, 8, 12]),
  variant('text-to-video', '720p', '9:16', '720x1280', [4, 8]),
  variant('image-to-video', '720p', '16:9', '1280x720', [8]),
];
const frame = { bytes: new Uint8Array([1]), mediaType: 'image/png', filename: 'f.png' };

function refusal(call: () => unknown): GatewayError {
  try {
    call();
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('selectVideoVariant', () => {
  it('selects by size, or by resolution and aspect ratio, at the asked seconds', () => {
    expect(selectVideoVariant('m', sold, { prompt: 'p', size: '720x1280', seconds: 8 })).toMatchObject({ variant: { aspectRatio: '9:16' }, seconds: 8 });
    expect(selectVideoVariant('m', sold, { prompt: 'p', resolution: '720p', aspectRatio: '9:16' })).toMatchObject({ variant: { size: '720x1280' }, seconds: 4 });
  });

  it('defaults to the first variant of the mode at its shortest length', () => {
    expect(selectVideoVariant('m', sold, { prompt: 'p' })).toMatchObject({ variant: { size: '1280x720', mode: 'text-to-video' }, seconds: 4 });
  });

  it('infers image-to-video from an input reference', () => {
    expect(selectVideoVariant('m', sold, { prompt: 'p', inputReference: frame })).toMatchObject({ variant: { mode: 'image-to-video' }, seconds: 8 });
  });

  it('refuses what is not sold, listing the sold variants', () => {
    const wrongSize = refusal(() => selectVideoVariant('m', sold, { prompt: 'p', size: '1920x1080' }));
    expect(wrongSize.param).toBe('size');
    expect(wrongSize.message).toContain('text-to-video 720p 16:9 (1280x720) for 4/8/12 s; text-to-video 720p 9:16 (720x1280) for 4/8 s');
    const wrongSeconds = refusal(() => selectVideoVariant('m', sold, { prompt: 'p', size: '720x1280', seconds: 12 }));
    expect(wrongSeconds.param).toBe('seconds');
    expect(wrongSeconds.message).toContain('4, 8 seconds, not 12');
    expect(refusal(() => selectVideoVariant('m', sold, { prompt: 'p', mode: 'image-to-video' })).param).toBe('input_reference');
    expect(refusal(() => selectVideoVariant('m', sold, { prompt: 'p', mode: 'text-to-video', inputReference: frame })).param).toBe('mode');
    expect(refusal(() => selectVideoVariant('m', sold.slice(0, 2), { prompt: 'p', inputReference: frame })).param).toBe('mode');
  });
});
