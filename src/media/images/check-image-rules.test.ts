import { describe, expect, it } from 'vitest';
import type { ImageRules } from '../../catalog/records/image-model-record.js';
import { GatewayError } from '../../errors/gateway-error.js';
import { checkImageRules } from './check-image-rules.js';
import type { ClientImageRequest } from './client-image-request.js';

const rules: ImageRules = {
  sizes: ['1024x1024', '1536x1024', 'auto'],
  qualities: ['low', 'high', 'auto'],
  maxN: 4,
  responseFormats: ['b64_json', 'url'],
  defaultResponseFormat: 'b64_json',
  outputFormats: ['png', 'jpeg'],
  backgrounds: ['transparent', 'opaque'],
  styles: [],
  streaming: false,
  edits: true,
  maxPromptLength: 20,
  maxInputImages: 2,
  maxInputImageBytes: 10,
};

function refusal(request: Partial<ClientImageRequest>, editing = false, modelRules: ImageRules = rules): GatewayError {
  try {
    checkImageRules({ prompt: 'a cat', ...request }, modelRules, 'm', editing);
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error('not refused');
}

const image = (size: number) => ({ bytes: new Uint8Array(size), mediaType: 'image/png', filename: `f${size}.png` });

describe('image rules', () => {
  it('lets a request within the rules through', () => {
    expect(() => checkImageRules({ prompt: 'a cat', n: 4, size: '1536x1024', quality: 'high', output_format: 'jpeg' }, rules, 'm', false)).not.toThrow();
  });

  it.each([
    [{ size: '512x512' }, 'size', ["'1024x1024', '1536x1024', 'auto'"]],
    [{ n: 5 }, 'n', ['1 to 4']],
    [{ quality: 'hd' }, 'quality', ["'low', 'high', 'auto'"]],
    [{ output_format: 'webp' }, 'output_format', ["'png', 'jpeg'"]],
    [{ background: 'auto' }, 'background', ["'transparent', 'opaque'"]],
    [{ style: 'vivid' }, 'style', ['does not take']],
    [{ stream: true }, 'stream', ['does not stream']],
    [{ prompt: 'x'.repeat(21) }, 'prompt', ['at most 20']],
    [{ background: 'transparent', output_format: 'jpeg' }, 'background', ["'png' or 'webp'"]],
    [{ output_compression: 50 }, 'output_compression', ["'jpeg' or 'webp'"]],
  ] as const)('refuses %j naming %s and what is allowed', (request, param, fragments) => {
    const error = refusal(request);
    expect(error.status).toBe(400);
    expect(error.param).toBe(param);
    for (const fragment of fragments) expect(error.message).toContain(fragment);
  });

  it('checks dimension limits and says which were broken', () => {
    const limited: ImageRules = { ...rules, sizes: undefined, dimensions: { minWidth: 256, maxWidth: 2048, minHeight: 256, maxHeight: 2048, multipleOf: 16, maxPixels: 2_000_000, maxAspectRatio: 3 } };
    expect(() => checkImageRules({ prompt: 'p', size: '1024x768' }, limited, 'm', false)).not.toThrow();
    expect(() => checkImageRules({ prompt: 'p', size: 'auto' }, limited, 'm', false)).not.toThrow();
    expect(refusal({ size: '100x4000' }, false, limited).message).toMatch(/width 256–2048, height 256–2048/);
    expect(refusal({ size: '1000x1000' }, false, limited).message).toContain('multiples of 16');
    expect(refusal({ size: '2048x1024' }, false, limited).message).toContain('at most 2000000 pixels');
    expect(refusal({ size: '1920x320' }, false, limited).message).toContain('aspect ratio at most 3');
    expect(refusal({ size: 'big' }, false, limited).param).toBe('size');
  });

  it('checks the images of an edit', () => {
    expect(refusal({}, true).param).toBe('image');
    expect(refusal({ images: [image(1), image(1), image(1)] }, true).message).toContain('at most 2 images');
    const tooLarge = refusal({ images: [image(11)] }, true);
    expect(tooLarge.param).toBe('image');
    expect(tooLarge.message).toContain('f11.png');
    expect(refusal({ images: [image(1)], mask: image(11) }, true).param).toBe('mask');
    expect(refusal({ images: [image(1)] }, true, { ...rules, edits: false }).param).toBe('model');
  });
});
