export type VideoMode = 'text-to-video' | 'image-to-video';

/** One combination a video model can make: mode × resolution × aspect ratio, at these lengths. */
export interface VideoVariant {
  readonly mode: VideoMode;
  readonly resolution: string;
  readonly aspectRatio: string;
  /** The `WxH` size the variant means (what OpenAI-shaped clients send as `size`). */
  readonly size: string;
  /** Allowed lengths in seconds. */
  readonly seconds: readonly number[];
}

export interface VideoModelRecord {
  readonly variants: readonly VideoVariant[];
  /** Whether the upstream can remix a finished video. */
  readonly remix: boolean;
  /** The largest `input_reference` image accepted, in bytes. */
  readonly maxInputReferenceBytes: number;
}

/** Vendors take a first frame of up to about 20 MB inline; the same by default. */
export const defaultMaxInputReferenceBytes = 20 * 1024 * 1024;

/** The size a resolution and aspect ratio mean: the short side is the resolution (720p 9:16 → 720x1280). */
export function sizeFor(resolution: string, aspectRatio: string): string {
  const shortSide = Number.parseInt(resolution, 10);
  const [width, height] = aspectRatio.split(':').map(Number) as [number, number];
  const longSide = Math.round((shortSide * Math.max(width, height)) / Math.min(width, height));
  return width >= height ? `${longSide}x${shortSide}` : `${shortSide}x${longSide}`;
}
