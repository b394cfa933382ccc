import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { drawPicture } from './draw-picture.js';

const base = { prompt: 'a lighthouse at dusk', index: 0, width: 1024, height: 1024, transparent: false } as const;

describe('drawPicture', () => {
  it.each([
    ['png', 1536, 1024],
    ['jpeg', 1024, 1536],
    ['webp', 832, 1248],
  ] as const)('encodes %s at exactly %ix%i', async (format, width, height) => {
    const picture = await drawPicture({ ...base, format, width, height });
    const metadata = await sharp(picture).metadata();
    expect(metadata).toMatchObject({ format, width, height });
  });

  it('keeps an alpha channel for a transparent background, and none for an opaque one', async () => {
    const transparent = await sharp(await drawPicture({ ...base, format: 'png', transparent: true })).metadata();
    expect(transparent.hasAlpha).toBe(true);
    const opaque = await sharp(await drawPicture({ ...base, format: 'png' })).metadata();
    expect(opaque.hasAlpha).toBe(false);
    const webp = await sharp(await drawPicture({ ...base, format: 'webp', transparent: true })).metadata();
    expect(webp.hasAlpha).toBe(true);
  });

  it('gives the same bytes for the same request and different pixels for another prompt or index', async () => {
    const first = await drawPicture({ ...base, format: 'png' });
    expect((await drawPicture({ ...base, format: 'png' })).equals(first)).toBe(true);
    const pixels = (buffer: Buffer) => sharp(buffer).raw().toBuffer();
    const firstPixels = await pixels(first);
    expect((await pixels(await drawPicture({ ...base, prompt: 'a cat on a sofa', format: 'png' }))).equals(firstPixels)).toBe(false);
    expect((await pixels(await drawPicture({ ...base, index: 1, format: 'png' }))).equals(firstPixels)).toBe(false);
  });

  it('draws an edit from its inputs: another input gives other pixels; an opaque mask keeps the input', async () => {
    const red = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#ff0000' } }).png().toBuffer();
    const blue = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#0000ff' } }).png().toBuffer();
    const onRed = await drawPicture({ ...base, format: 'png', inputs: [red] });
    const onBlue = await drawPicture({ ...base, format: 'png', inputs: [blue] });
    expect(onRed.equals(onBlue)).toBe(false);
    const opaqueMask = await sharp({ create: { width: 64, height: 64, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 1 } } }).png().toBuffer();
    const masked = await drawPicture({ ...base, format: 'png', inputs: [red], mask: opaqueMask });
    const { data } = await sharp(masked).raw().toBuffer({ resolveWithObject: true });
    expect([data[0], data[1], data[2]]).toEqual([255, 0, 0]);
  });

  it('encodes a 1536x1024 PNG well under a second', async () => {
    await drawPicture({ ...base, format: 'png', width: 1536, height: 1024 });
    const started = performance.now();
    await drawPicture({ ...base, prompt: 'timed', format: 'png', width: 1536, height: 1024 });
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
