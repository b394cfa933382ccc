import { createHash } from 'node:crypto';

/**
 * An SVG drawn from a hash of the prompt: a gradient, a few shapes and a bar code of the hash, so a
 * person can tell two prompts apart at a glance. Only shapes, never text: fonts may not be installed.
 */

export interface PictureSvgOptions {
  readonly width: number;
  readonly height: number;
  /**
   * 1 paints the gradient over the whole canvas; 0 leaves it empty, so the encoded picture keeps an
   * alpha channel; between, it tints what lies below (an edit's input pictures).
   */
  readonly backgroundOpacity: number;
  /** 0–1: how much of the picture is drawn; streamed partial images show it growing. */
  readonly detail: number;
}

const shapeCount = 7;
const barCount = 32;

/** Bytes from a SHA-256 chain over the seed: as many as the drawing needs, always the same. */
class SeedBytes {
  private block: Buffer;
  private position = 0;
  private round = 0;

  constructor(private readonly seed: string) {
    this.block = this.digest();
  }

  /** A number in [0, 1). */
  next(): number {
    if (this.position + 2 > this.block.length) {
      this.round += 1;
      this.block = this.digest();
      this.position = 0;
    }
    const value = this.block.readUInt16BE(this.position);
    this.position += 2;
    return value / 65_536;
  }

  between(low: number, high: number): number {
    return low + (high - low) * this.next();
  }

  private digest(): Buffer {
    return createHash('sha256').update(`${this.seed}\u0000${this.round}`).digest();
  }
}

function colour(bytes: SeedBytes, lightnessLow: number, lightnessHigh: number): string {
  const hue = Math.floor(bytes.between(0, 360));
  const saturation = Math.floor(bytes.between(55, 95));
  const lightness = Math.floor(bytes.between(lightnessLow, lightnessHigh));
  return `hsl(${hue},${saturation}%,${lightness}%)`;
}

function round(value: number): string {
  return value.toFixed(1);
}

function shape(bytes: SeedBytes, width: number, height: number): string {
  const kind = Math.floor(bytes.next() * 3);
  const centreX = bytes.between(0.1, 0.9) * width;
  const centreY = bytes.between(0.1, 0.85) * height;
  const size = bytes.between(0.06, 0.22) * Math.min(width, height);
  const fill = colour(bytes, 30, 75);
  const opacity = bytes.between(0.6, 0.95).toFixed(2);
  const angle = Math.floor(bytes.between(0, 180));
  const style = `fill="${fill}" fill-opacity="${opacity}"`;
  if (kind === 0) return `<circle cx="${round(centreX)}" cy="${round(centreY)}" r="${round(size)}" ${style}/>`;
  const transform = `transform="rotate(${angle} ${round(centreX)} ${round(centreY)})"`;
  if (kind === 1) {
    const side = size * 1.6;
    return `<rect x="${round(centreX - side / 2)}" y="${round(centreY - side / 3)}" width="${round(side)}" height="${round((side * 2) / 3)}" rx="${round(side / 10)}" ${style} ${transform}/>`;
  }
  const points = [0, 120, 240]
    .map((degrees) => {
      const radians = (degrees * Math.PI) / 180;
      return `${round(centreX + size * Math.sin(radians))},${round(centreY - size * Math.cos(radians))}`;
    })
    .join(' ');
  return `<polygon points="${points}" ${style} ${transform}/>`;
}

/** A row of light and dark bars along the bottom: the hash itself, readable by eye. */
function barCode(bytes: SeedBytes, width: number, height: number): string {
  const barHeight = Math.max(4, Math.round(height * 0.05));
  const barWidth = width / barCount;
  const top = height - barHeight;
  const bars: string[] = [];
  for (let index = 0; index < barCount; index += 1) {
    const shade = bytes.next() < 0.5 ? '#111' : '#f5f5f5';
    bars.push(`<rect x="${round(index * barWidth)}" y="${top}" width="${round(barWidth + 0.5)}" height="${barHeight}" fill="${shade}"/>`);
  }
  return bars.join('');
}

export function pictureSvg(seed: string, options: PictureSvgOptions): string {
  const { width, height } = options;
  const bytes = new SeedBytes(seed);
  const from = colour(bytes, 20, 45);
  const to = colour(bytes, 55, 85);
  const angle = Math.floor(bytes.between(0, 360));
  const shapes: string[] = [];
  for (let index = 0; index < shapeCount; index += 1) shapes.push(shape(bytes, width, height));
  const drawn = Math.ceil(shapeCount * Math.min(1, Math.max(0, options.detail)));
  const backgroundElements =
    options.backgroundOpacity > 0
      ? `<defs><linearGradient id="g" gradientTransform="rotate(${angle} 0.5 0.5)"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>` +
        `<rect width="${width}" height="${height}" fill="url(#g)" fill-opacity="${options.backgroundOpacity.toFixed(2)}"/>`
      : '';
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    backgroundElements +
    shapes.slice(0, drawn).join('') +
    barCode(bytes, width, height) +
    '</svg>'
  );
}
