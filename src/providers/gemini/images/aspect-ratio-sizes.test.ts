import { describe, expect, it } from 'vitest';
import { aspectRatioForSize, geminiImageSizes, imagenSizes } from './aspect-ratio-sizes.js';

describe('aspect ratio for a requested size', () => {
  it('takes the entry of an exact size', () => {
    expect(aspectRatioForSize('1408x768', imagenSizes)).toEqual({ aspectRatio: '16:9', size: '1408x768' });
    expect(aspectRatioForSize('1536x672', geminiImageSizes)).toEqual({ aspectRatio: '21:9', size: '1536x672' });
  });

  it('takes the nearest shape for any other size', () => {
    expect(aspectRatioForSize('1536x1024', imagenSizes)?.aspectRatio).toBe('4:3');
    expect(aspectRatioForSize('1536x1024', geminiImageSizes)?.aspectRatio).toBe('3:2');
    expect(aspectRatioForSize('512x512', geminiImageSizes)?.size).toBe('1024x1024');
    expect(aspectRatioForSize('1920x1080', imagenSizes)?.aspectRatio).toBe('16:9');
  });

  it('leaves the choice to the model for auto, no size or a malformed one', () => {
    expect(aspectRatioForSize('auto', imagenSizes)).toBeUndefined();
    expect(aspectRatioForSize(undefined, imagenSizes)).toBeUndefined();
    expect(aspectRatioForSize('big', imagenSizes)).toBeUndefined();
  });
});
