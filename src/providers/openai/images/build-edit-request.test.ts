import { describe, expect, it } from 'vitest';
import type { ImageInput } from '../../../ir/index.js';
import { createOpenAIImageGeneration } from './openai-image-generation.js';
import { imageRequest, imageTarget, parseMultipart } from './images.test-support.js';

const png: ImageInput = { bytes: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff]), mediaType: 'image/png', filename: 'room.png' };
const jpeg: ImageInput = { bytes: new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x0d, 0x0a]), mediaType: 'image/jpeg', filename: 'lamp "1".jpg' };
const mask: ImageInput = { bytes: new Uint8Array([1, 2, 3]), mediaType: 'image/png', filename: 'mask.png' };

async function formOf(built: { headers: Readonly<Record<string, string>>; body: string | Buffer }) {
  expect(Buffer.isBuffer(built.body)).toBe(true);
  const contentType = built.headers['content-type'] ?? '';
  expect(contentType).toMatch(/^multipart\/form-data; boundary=/);
  return parseMultipart(Buffer.from(built.body), contentType);
}

describe('OpenAI images: edits request', () => {
  it('posts one picture as `image` with the mask and the options as text fields', async () => {
    const built = createOpenAIImageGeneration('openai').buildRequest(
      imageRequest({ inputImages: [png], mask, size: '1024x1024', quality: 'low', n: 2 }),
      imageTarget(),
    );
    expect(built.url).toBe('https://api.openai.com/v1/images/edits');
    expect(built.headers['authorization']).toBe('Bearer sk-test');
    const parts = await formOf(built);
    expect(parts.map((part) => part.name)).toEqual(['model', 'prompt', 'image', 'mask', 'n', 'size', 'quality']);
    expect(parts.find((part) => part.name === 'image')).toMatchObject({ filename: 'room.png', mediaType: 'image/png', bytes: Buffer.from(png.bytes) });
    expect(parts.find((part) => part.name === 'mask')?.bytes).toEqual(Buffer.from(mask.bytes));
    expect(parts.find((part) => part.name === 'n')?.value).toBe('2');
    expect(parts.find((part) => part.name === 'model')?.value).toBe('gpt-image-1');
  });

  it('posts several pictures as repeated `image[]` parts, byte for byte', async () => {
    const built = createOpenAIImageGeneration('openai').buildRequest(imageRequest({ inputImages: [png, jpeg] }), imageTarget());
    const files = (await formOf(built)).filter((part) => part.name === 'image[]');
    expect(files.map((part) => part.bytes)).toEqual([Buffer.from(png.bytes), Buffer.from(jpeg.bytes)]);
    expect(files[1]?.mediaType).toBe('image/jpeg');
  });

  it('keeps a filename with quotes from breaking its part header', async () => {
    const built = createOpenAIImageGeneration('openai').buildRequest(imageRequest({ inputImages: [jpeg] }), imageTarget());
    const image = (await formOf(built)).find((part) => part.name === 'image');
    expect(image?.filename).toBe('lamp %221%22.jpg');
  });

  it('sends response_format to compatible servers and replaces any configured content type', async () => {
    const target = imageTarget({ kind: 'openai-compatible', headers: { 'Content-Type': 'application/json', 'x-team': 'art' } });
    const built = createOpenAIImageGeneration('openai-compatible').buildRequest(imageRequest({ inputImages: [png] }), target);
    expect(Object.keys(built.headers).filter((name) => name.toLowerCase() === 'content-type')).toEqual(['content-type']);
    expect(built.headers['x-team']).toBe('art');
    expect((await formOf(built)).find((part) => part.name === 'response_format')?.value).toBe('b64_json');
  });

  it('asks for a streamed edit as text fields, the way the SDK writes booleans', async () => {
    const built = createOpenAIImageGeneration('openai').buildRequest(imageRequest({ inputImages: [png], partialImages: 1 }), imageTarget());
    const parts = await formOf(built);
    expect(parts.find((part) => part.name === 'stream')?.value).toBe('true');
    expect(parts.find((part) => part.name === 'partial_images')?.value).toBe('1');
  });
});
