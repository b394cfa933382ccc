/**
 * The sizes the fake BFL makes, as BFL's models do: the `width`/`height` asked where a model takes
 * them (checked against its limits, refused with BFL's 422 otherwise), else the size of the
 * `aspect_ratio` asked, else the model's default; an edit without either keeps its input's size.
 */

export type FakeSize = { readonly width: number; readonly height: number } | { readonly refused: string };

const kontext: Readonly<Record<string, readonly [number, number]>> = {
  '1:1': [1024, 1024], '4:3': [1184, 880], '3:4': [880, 1184], '3:2': [1248, 832], '2:3': [832, 1248],
  '16:9': [1392, 752], '9:16': [752, 1392], '21:9': [1568, 672], '9:21': [672, 1568],
};

const ultra: Readonly<Record<string, readonly [number, number]>> = {
  '1:1': [2048, 2048], '4:3': [2368, 1792], '3:4': [1792, 2368], '3:2': [2496, 1664], '2:3': [1664, 2496], '16:9': [2752, 1536],
  '9:16': [1536, 2752], '5:4': [2272, 1824], '4:5': [1824, 2272], '21:9': [3136, 1344], '9:21': [1344, 3136],
};

interface Limits {
  readonly min: number;
  readonly max: number;
  readonly multipleOf: number;
  readonly maxPixels?: number;
}

/** FLUX1.1 [pro] and [dev] per docs.bfl.ai; FLUX.2 per the limits resellers publish. */
const limitsByModel: Readonly<Record<string, Limits>> = {
  'flux-pro-1.1': { min: 256, max: 1440, multipleOf: 32 },
  'flux-dev': { min: 256, max: 1440, multipleOf: 32 },
  'flux-2-pro': { min: 64, max: 2048, multipleOf: 16, maxPixels: 2048 * 2048 },
  'flux-2-max': { min: 64, max: 2048, multipleOf: 16, maxPixels: 2048 * 2048 },
  'flux-2-flex': { min: 64, max: 2048, multipleOf: 16, maxPixels: 2048 * 2048 },
};

function checked(model: string, width: number, height: number): FakeSize {
  const limits = limitsByModel[model];
  if (limits === undefined) return { width, height };
  for (const [name, side] of [['width', width], ['height', height]] as const) {
    if (side % limits.multipleOf !== 0) return { refused: `${name}: Must be a multiple of ${limits.multipleOf}` };
    if (side < limits.min || side > limits.max) return { refused: `${name}: Input should be between ${limits.min} and ${limits.max}` };
  }
  if (limits.maxPixels !== undefined && width * height > limits.maxPixels) return { refused: `width × height must be at most ${limits.maxPixels} pixels` };
  return { width, height };
}

export function fakeSize(model: string, body: Readonly<Record<string, unknown>>, inputSize: { width: number; height: number } | undefined): FakeSize {
  const { width, height, aspect_ratio: ratio } = body;
  if (typeof width === 'number' && typeof height === 'number') return checked(model, width, height);
  const table = model.includes('ultra') ? ultra : kontext;
  if (typeof ratio === 'string') {
    const pair = table[ratio];
    return pair === undefined ? { refused: `aspect_ratio: ${ratio} is not between 21:9 and 9:21` } : { width: pair[0], height: pair[1] };
  }
  if (inputSize !== undefined) return inputSize;
  if (model.includes('ultra')) return { width: 2752, height: 1536 };
  if (model === 'flux-pro-1.1' || model === 'flux-dev') return { width: 1024, height: 768 };
  return { width: 1024, height: 1024 };
}
