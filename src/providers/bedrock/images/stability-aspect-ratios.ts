/** One `aspect_ratio` Stability's models on Bedrock take, and the picture size it produces (about one megapixel). */
export interface StabilityAspectRatio {
  readonly aspectRatio: string;
  readonly size: string;
}

/** Every `aspect_ratio` of Stable Image Ultra, Stable Image Core and SD3.5 Large; `1:1` is their default. */
export const stabilityAspectRatios: readonly StabilityAspectRatio[] = [
  { aspectRatio: '1:1', size: '1024x1024' },
  { aspectRatio: '16:9', size: '1344x768' },
  { aspectRatio: '9:16', size: '768x1344' },
  { aspectRatio: '21:9', size: '1536x640' },
  { aspectRatio: '9:21', size: '640x1536' },
  { aspectRatio: '3:2', size: '1216x832' },
  { aspectRatio: '2:3', size: '832x1216' },
  { aspectRatio: '5:4', size: '1088x896' },
  { aspectRatio: '4:5', size: '896x1088' },
];

export const stabilityDefaultAspectRatio: StabilityAspectRatio = { aspectRatio: '1:1', size: '1024x1024' };

/**
 * The aspect ratio for an asked `WxH`: these models take a ratio, not pixels, so the image record
 * offers exactly the sizes they produce. Undefined for `auto` or no size (the model's default).
 */
export function stabilityAspectRatioForSize(size: string | undefined): StabilityAspectRatio | undefined {
  return size === undefined || size === 'auto' ? undefined : stabilityAspectRatios.find((entry) => entry.size === size);
}
