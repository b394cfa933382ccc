/** What a `Range` header asks of content of `size` bytes. */
export type RangeRequest =
  | { readonly kind: 'whole' }
  | { readonly kind: 'range'; readonly start: number; readonly end: number }
  | { readonly kind: 'unsatisfiable' };

/**
 * Reads a single `bytes=` range (`a-b`, `a-`, or the suffix `-n`), clamped to the content. A
 * header that is not one byte range (several ranges, other units, garbage) is ignored and the
 * whole content served, as RFC 9110 allows; a range wholly outside the content is unsatisfiable.
 */
export function parseByteRange(header: string | undefined, size: number): RangeRequest {
  if (header === undefined) return { kind: 'whole' };
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (match === null || (match[1] === '' && match[2] === '')) return { kind: 'whole' };
  const [, first = '', last = ''] = match;
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'range', start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (start >= size || end < start) return { kind: 'unsatisfiable' };
  return { kind: 'range', start, end };
}
