import { loadSharp } from './load-sharp.js';
import type { Sharp } from 'sharp';
import { pictureSvg } from './picture-svg.js';

export type PictureFormat = 'png' | 'jpeg' | 'webp';

export interface PictureRequest {
  readonly prompt: string;
  /** Which of several images of one request: each gets its own drawing. */
  readonly index: number;
  readonly width: number;
  readonly height: number;
  readonly format: PictureFormat;
  /** Keeps an alpha channel (PNG and WebP only; JPEG has none). */
  readonly transparent: boolean;
  /** JPEG and WebP quality, 0–100 (100 when absent). */
  readonly compression?: number;
  /** 0–1, 1 when absent: partial images of a stream are drawn with less of the picture. */
  readonly detail?: number;
  /** An edit's input pictures: laid side by side under a tint and the prompt's shapes. */
  readonly inputs?: readonly Buffer[];
  /** An edit's mask: the prompt's drawing lands only where the mask is transparent. */
  readonly mask?: Buffer;
}

/** Share of the gradient painted over an edit's inputs: enough to see the prompt, not hide the input. */
const editTint = 0.35;

/** A real picture of exactly the size asked, encoded as asked; the same request gives the same bytes. */
export async function drawPicture(request: PictureRequest): Promise<Buffer> {
  const sharp = await loadSharp();
  const { width, height } = request;
  const seed = `${request.prompt}\u0000${request.index}`;
  const detail = request.detail ?? 1;
  const inputs = request.inputs ?? [];
  let picture: Sharp;
  if (inputs.length === 0) {
    const svg = pictureSvg(seed, { width, height, detail, backgroundOpacity: request.transparent ? 0 : 1 });
    picture = sharp(Buffer.from(svg));
  } else {
    const svg = pictureSvg(seed, { width, height, detail, backgroundOpacity: editTint });
    const overlay = request.mask === undefined ? Buffer.from(svg) : await maskedOverlay(svg, request.mask, width, height);
    const base = await sideBySide(inputs, width, height, request.transparent);
    picture = sharp(base, { raw: { width, height, channels: 4 } }).composite([{ input: overlay }]);
  }
  return encode(picture, request);
}

async function encode(picture: Sharp, request: PictureRequest): Promise<Buffer> {
  const sharp = await loadSharp();
  const quality = Math.max(1, Math.min(100, request.compression ?? 100));
  // The composite must be flattened into pixels before alpha can be dropped or kept.
  const pixels = await picture.ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const keepAlpha = request.transparent && request.format !== 'jpeg';
  let output = sharp(pixels.data, { raw: { width: pixels.info.width, height: pixels.info.height, channels: 4 } });
  if (!keepAlpha) output = output.flatten({ background: '#ffffff' });
  switch (request.format) {
    case 'png':
      // zlib's middle level: compact files, and fast enough for the largest sizes.
      return output.png({ compressionLevel: 6 }).toBuffer();
    case 'jpeg':
      return output.jpeg({ quality }).toBuffer();
    case 'webp':
      // Effort 2: the default (4) takes several times longer for no visible gain in a test picture.
      return output.webp({ quality, effort: 2 }).toBuffer();
  }
}

/** The inputs resized to cover equal columns of the canvas, left to right, as raw RGBA. */
async function sideBySide(inputs: readonly Buffer[], width: number, height: number, transparent: boolean): Promise<Buffer> {
  const sharp = await loadSharp();
  const columnWidth = Math.floor(width / inputs.length);
  const columns = await Promise.all(
    inputs.map(async (input, index) => {
      const left = index * columnWidth;
      const columnSpan = index === inputs.length - 1 ? width - left : columnWidth;
      const resized = await sharp(input).resize(columnSpan, height, { fit: 'cover' }).ensureAlpha().png().toBuffer();
      return { input: resized, left, top: 0 };
    }),
  );
  const background = { r: 255, g: 255, b: 255, alpha: transparent ? 0 : 1 };
  return sharp({ create: { width, height, channels: 4, background } }).composite(columns).raw().toBuffer();
}

/** The drawing with its alpha cut by the mask: opaque mask pixels keep the input untouched. */
async function maskedOverlay(svg: string, mask: Buffer, width: number, height: number): Promise<Buffer> {
  const sharp = await loadSharp();
  const overlay = await sharp(Buffer.from(svg)).ensureAlpha().raw().toBuffer();
  const maskAlpha = await sharp(mask).resize(width, height, { fit: 'fill' }).ensureAlpha().extractChannel(3).raw().toBuffer();
  for (let pixel = 0; pixel < width * height; pixel += 1) {
    const alphaIndex = pixel * 4 + 3;
    overlay[alphaIndex] = Math.round(((overlay[alphaIndex] ?? 0) * (255 - (maskAlpha[pixel] ?? 0))) / 255);
  }
  return sharp(overlay, { raw: { width, height, channels: 4 } }).png({ compressionLevel: 0 }).toBuffer();
}
