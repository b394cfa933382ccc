/**
 * Content keys are our own ids joined by `/` (`videos/video_abc/content.mp4`). Anything else is
 * refused, so a key can never name a path outside the store.
 */
const keyPattern = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*(\/[A-Za-z0-9_-][A-Za-z0-9_.-]*)*$/;

export function assertContentKey(key: string): void {
  if (!keyPattern.test(key) || key.split('/').some((segment) => segment.includes('..'))) {
    throw new RangeError(`"${key}" is not a content key`);
  }
}

/** The clamped inclusive range `[start, end]` within `size` bytes; undefined when it lies outside. */
export function clampRange(size: number, range: { readonly start: number; readonly end?: number } | undefined): { start: number; end: number } | undefined {
  if (range === undefined) return { start: 0, end: size - 1 };
  if (!Number.isSafeInteger(range.start) || range.start < 0 || range.start >= size) return undefined;
  const end = Math.min(range.end ?? size - 1, size - 1);
  return end < range.start ? undefined : { start: range.start, end };
}
