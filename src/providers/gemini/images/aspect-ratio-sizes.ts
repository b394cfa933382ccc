/** One aspect ratio a Google image model takes, and the pixel size it produces for it. */
export interface AspectRatioSize {
  readonly aspectRatio: string;
  readonly size: string;
}

/** Imagen at 1K: the size each `aspectRatio` produces. */
export const imagenSizes: readonly AspectRatioSize[] = [
  { aspectRatio: '1:1', size: '1024x1024' },
  { aspectRatio: '3:4', size: '896x1280' },
  { aspectRatio: '4:3', size: '1280x896' },
  { aspectRatio: '9:16', size: '768x1408' },
  { aspectRatio: '16:9', size: '1408x768' },
];

/** Gemini image-output models: the size each `imageConfig.aspectRatio` produces. */
export const geminiImageSizes: readonly AspectRatioSize[] = [
  { aspectRatio: '1:1', size: '1024x1024' },
  { aspectRatio: '2:3', size: '832x1248' },
  { aspectRatio: '3:2', size: '1248x832' },
  { aspectRatio: '3:4', size: '864x1184' },
  { aspectRatio: '4:3', size: '1184x864' },
  { aspectRatio: '4:5', size: '896x1152' },
  { aspectRatio: '5:4', size: '1152x896' },
  { aspectRatio: '9:16', size: '768x1344' },
  { aspectRatio: '16:9', size: '1344x768' },
  { aspectRatio: '21:9', size: '1536x672' },
];

/**
 * The entry for a requested `WxH`: the one of that exact size, else the one nearest in shape
 * (Google takes a ratio, not pixels). Undefined for `auto` or no size, where the model picks.
 */
export function aspectRatioForSize(size: string | undefined, table: readonly AspectRatioSize[]): AspectRatioSize | undefined {
  if (size === undefined || size === 'auto') return undefined;
  const exact = table.find((entry) => entry.size === size);
  if (exact !== undefined) return exact;
  const requested = ratioOf(size);
  if (requested === undefined) return undefined;
  let nearest: AspectRatioSize | undefined;
  let nearestDistance = Number.POSITIVE_INFINITY;
  for (const entry of table) {
    const ratio = ratioOf(entry.size);
    if (ratio === undefined) continue;
    // Compared on a log scale so 2:1 and 1:2 are equally far from 1:1.
    const distance = Math.abs(Math.log(ratio / requested));
    if (distance < nearestDistance) {
      nearest = entry;
      nearestDistance = distance;
    }
  }
  return nearest;
}

function ratioOf(size: string): number | undefined {
  const match = /^(\d+)x(\d+)$/.exec(size);
  const width = Number(match?.[1]);
  const height = Number(match?.[2]);
  return width > 0 && height > 0 ? width / height : undefined;
}
