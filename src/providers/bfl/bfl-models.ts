/**
 * How each FLUX model on BFL's API takes a picture's shape and its input images. Models that take
 * `width`/`height` get the size asked; the others take an `aspect_ratio`, named by the size the
 * model record lists for it (the size BFL makes at that ratio).
 */
export interface BflModelShape {
  /** `dimensions`: `width` and `height`; `aspect-ratio`: `aspect_ratio` from the sizes below. */
  readonly sizing: 'dimensions' | 'aspect-ratio';
  /** How many input images it takes: `input_image`, then `input_image_2` … for the FLUX.2 models. */
  readonly maxInputImages: number;
}

/** FLUX.1 Kontext's sizes, about one megapixel each, by the aspect ratio BFL is sent. */
export const kontextSizes: Readonly<Record<string, string>> = {
  '1024x1024': '1:1',
  '1184x880': '4:3',
  '880x1184': '3:4',
  '1248x832': '3:2',
  '832x1248': '2:3',
  '1392x752': '16:9',
  '752x1392': '9:16',
  '1568x672': '21:9',
  '672x1568': '9:21',
};

/** FLUX1.1 [pro] Ultra's sizes, about four megapixels each, by the aspect ratio BFL is sent. */
export const ultraSizes: Readonly<Record<string, string>> = {
  '2048x2048': '1:1',
  '2368x1792': '4:3',
  '1792x2368': '3:4',
  '2496x1664': '3:2',
  '1664x2496': '2:3',
  '2752x1536': '16:9',
  '1536x2752': '9:16',
  '2272x1824': '5:4',
  '1824x2272': '4:5',
  '3136x1344': '21:9',
  '1344x3136': '9:21',
};

const dimensions = (maxInputImages: number): BflModelShape => ({ sizing: 'dimensions', maxInputImages });

/** The models the gateway knows on BFL's API, by BFL's own id (the route's model). */
const shapes: Readonly<Record<string, BflModelShape>> = {
  'flux-pro-1.1': dimensions(0),
  'flux-dev': dimensions(0),
  'flux-pro-1.1-ultra': { sizing: 'aspect-ratio', maxInputImages: 0 },
  'flux-kontext-pro': { sizing: 'aspect-ratio', maxInputImages: 1 },
  'flux-kontext-max': { sizing: 'aspect-ratio', maxInputImages: 1 },
  'flux-2-pro': dimensions(8),
  'flux-2-max': dimensions(8),
  'flux-2-flex': dimensions(8),
};

/** A model BFL serves that the gateway does not know by id is sent width and height, with up to one input image. */
const otherModel: BflModelShape = dimensions(1);

export function bflModelShape(model: string): BflModelShape {
  return Object.hasOwn(shapes, model) ? (shapes[model] as BflModelShape) : otherModel;
}

/** The aspect ratio BFL is sent for a size of a model that takes ratios; a size of no listed ratio is reduced. */
export function aspectRatioOf(model: string, size: string): string {
  const listed = model === 'flux-pro-1.1-ultra' ? ultraSizes[size] : kontextSizes[size];
  if (listed !== undefined) return listed;
  const [width, height] = size.split('x').map(Number) as [number, number];
  const divisor = greatestCommonDivisor(width, height);
  return `${width / divisor}:${height / divisor}`;
}

function greatestCommonDivisor(left: number, right: number): number {
  return right === 0 ? left : greatestCommonDivisor(right, left % right);
}
