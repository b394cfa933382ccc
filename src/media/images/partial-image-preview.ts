import { loadSharp } from './load-sharp.js';
import type { ImageOutputFormat } from '../../ir/image-generation.js';

/**
 * A stand-in for one of the partial images an upstream without a stream never sent, made from the
 * final picture: shrunk, blurred and scaled back to full size, coarser the earlier it comes, so
 * the previews sharpen towards the final image as a real progression does. Partial `index` of
 * `count` (0-based) keeps 1/2^(count − index + 1) of the resolution.
 */
export async function partialImagePreview(final: Buffer, index: number, count: number, format: ImageOutputFormat): Promise<Buffer> {
  const sharp = await loadSharp();
  const metadata = await sharp(final).metadata();
  const width = metadata.width ?? 1;
  const height = metadata.height ?? 1;
  const factor = 2 ** (count - index + 1);
  const small = await sharp(final)
    .resize(Math.max(1, Math.round(width / factor)), Math.max(1, Math.round(height / factor)), { fit: 'fill' })
    .toBuffer();
  const blurred = sharp(small).resize(width, height, { fit: 'fill', kernel: 'cubic' }).blur(Math.max(0.3, factor / 4));
  return blurred.toFormat(format).toBuffer();
}
