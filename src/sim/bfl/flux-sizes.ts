/**
 * The sizes BFL's FLUX models make, as the simulator plays them: the size asked where a model takes
 * width and height, else the size of the aspect ratio asked (about one megapixel for Kontext, four
 * for Ultra), else the model's default.
 */

const kontextByRatio: Readonly<Record<string, readonly [number, number]>> = {
  '1:1': [1024, 1024],
  '4:3': [1184, 880],
  '3:4': [880, 1184],
  '3:2': [1248, 832],
  '2:3': [832, 1248],
  '16:9': [1392, 752],
  '9:16': [752, 1392],
  '21:9': [1568, 672],
  '9:21': [672, 1568],
};

const ultraByRatio: Readonly<Record<string, readonly [number, number]>> = {
  '1:1': [2048, 2048],
  '4:3': [2368, 1792],
  '3:4': [1792, 2368],
  '3:2': [2496, 1664],
  '2:3': [1664, 2496],
  '16:9': [2752, 1536],
  '9:16': [1536, 2752],
  '5:4': [2272, 1824],
  '4:5': [1824, 2272],
  '21:9': [3136, 1344],
  '9:21': [1344, 3136],
};

/** A ratio not in the tables: about `megapixels` at that ratio, in multiples of 32. */
function atRatio(ratio: string, megapixels: number): readonly [number, number] | undefined {
  const match = /^(\d+):(\d+)$/.exec(ratio);
  if (match === null) return undefined;
  const across = Number(match[1]);
  const down = Number(match[2]);
  if (across === 0 || down === 0) return undefined;
  const width = Math.round(Math.sqrt((megapixels * 1_000_000 * across) / down) / 32) * 32;
  const height = Math.round((width * down) / across / 32) * 32;
  return [Math.max(32, width), Math.max(32, height)];
}

export function fluxSize(model: string, width: number | undefined, height: number | undefined, aspectRatio: string | undefined): readonly [number, number] | undefined {
  if (width !== undefined && height !== undefined) return [width, height];
  const ultra = model.includes('ultra');
  if (aspectRatio !== undefined) return (ultra ? ultraByRatio : kontextByRatio)[aspectRatio] ?? atRatio(aspectRatio, ultra ? 4 : 1);
  if (ultra) return [2752, 1536];
  if (model === 'flux-pro-1.1' || model === 'flux-dev') return [1024, 768];
  return [1024, 1024];
}
