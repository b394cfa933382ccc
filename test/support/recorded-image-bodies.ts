import sharp from 'sharp';
import { readFixture } from './fixtures.js';

export interface PictureSize {
  readonly width: number;
  readonly height: number;
}

/** A picture put where a recording's image bytes were cut or redacted. */
export interface GeneratedPicture extends PictureSize {
  readonly format: 'png' | 'jpeg';
  readonly base64: string;
}

/** The fields of the recorded answers that hold an image as base64. */
function isImageField(key: string, parentKey: string | undefined): boolean {
  return key === 'b64_json' || key === 'bytesBase64Encoded' || (key === 'data' && parentKey === 'inlineData');
}

/**
 * The size a cut PNG states in its IHDR chunk (bytes 16–23), which survives in the first 32
 * base64 characters the recorders kept; undefined for anything else.
 */
function statedPngSize(base64: string): PictureSize | undefined {
  if (!base64.startsWith('iVBORw0KGgo') || base64.length < 32) return undefined;
  const header = Buffer.from(base64.slice(0, 32), 'base64');
  return { width: header.readUInt32BE(16), height: header.readUInt32BE(20) };
}

async function drawPicture(size: PictureSize, format: 'png' | 'jpeg', index: number): Promise<GeneratedPicture> {
  // A distinct colour per picture, so each answer item can be matched to its replacement.
  const background = { r: (60 * index + 40) % 256, g: (90 * index + 120) % 256, b: (30 * index + 200) % 256 };
  const canvas = sharp({ create: { width: size.width, height: size.height, channels: 3, background } });
  const bytes = await (format === 'jpeg' ? canvas.jpeg({ quality: 60 }) : canvas.png({ compressionLevel: 9 })).toBuffer();
  return { ...size, format, base64: bytes.toString('base64') };
}

/**
 * A recorded answer whose image payloads were cut or redacted by its recorder (see
 * test/fixtures/README.md), with each one replaced by a real picture: PNGs at the size their
 * surviving header states, JPEGs (whose size is not in the part kept) and blanked payloads at
 * the answer's reported `size` or else `fallback`. Every other byte of the answer is the
 * recording's; the fixture file itself is left as recorded.
 */
export async function recordedBodyWithPictures(fixture: string, fallback: PictureSize): Promise<{ body: string; pictures: GeneratedPicture[] }> {
  const recorded = JSON.parse(readFixture(fixture)) as unknown;
  const reported = typeof recorded === 'object' && recorded !== null ? (recorded as Record<string, unknown>).size : undefined;
  const reportedMatch = typeof reported === 'string' ? /^(\d+)x(\d+)$/.exec(reported) : null;
  const answerSize = reportedMatch === null ? fallback : { width: Number(reportedMatch[1]), height: Number(reportedMatch[2]) };
  const pictures: GeneratedPicture[] = [];
  const replace = async (value: unknown, parentKey: string | undefined): Promise<unknown> => {
    if (Array.isArray(value)) {
      const items: unknown[] = [];
      for (const item of value) items.push(await replace(item, parentKey));
      return items;
    }
    if (typeof value !== 'object' || value === null) return value;
    const copy: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(value)) {
      if (typeof field === 'string' && isImageField(key, parentKey)) {
        const format = field.startsWith('/9j/') ? 'jpeg' : 'png';
        const picture = await drawPicture(statedPngSize(field) ?? answerSize, format, pictures.length);
        pictures.push(picture);
        copy[key] = picture.base64;
      } else {
        copy[key] = await replace(field, key);
      }
    }
    return copy;
  };
  const body = JSON.stringify(await replace(recorded, undefined), null, 2);
  return { body, pictures };
}
