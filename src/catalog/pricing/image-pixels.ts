/** Pixels in a megapixel, as vendors that bill by output size count it. */
export const pixelsPerMegapixel = 1_000_000n;

/**
 * A decimal count of megapixels ("1.05", as an upstream reports what it billed) in whole pixels,
 * exactly; a finer fraction than a pixel is rounded half up. Undefined for anything not a
 * non-negative decimal.
 */
export function megapixelsToPixels(megapixels: string): bigint | undefined {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(megapixels);
  if (match === null) return undefined;
  const fraction = (match[2] ?? '').padEnd(7, '0');
  const pixels = BigInt(match[1] as string) * pixelsPerMegapixel + BigInt(fraction.slice(0, 6));
  return Number(fraction[6]) >= 5 ? pixels + 1n : pixels;
}

/** The pixels of a `WxH` size; undefined for `auto` or anything else. */
export function sizePixels(size: string | undefined): bigint | undefined {
  const match = size === undefined ? null : /^(\d+)x(\d+)$/.exec(size);
  return match === null ? undefined : BigInt(match[1] as string) * BigInt(match[2] as string);
}
