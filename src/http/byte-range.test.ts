import { describe, expect, it } from 'vitest';
import { parseByteRange } from './byte-range.js';

describe('parseByteRange', () => {
  it.each([
    [undefined, { kind: 'whole' }],
    ['bytes=0-99', { kind: 'range', start: 0, end: 99 }],
    ['bytes=100-', { kind: 'range', start: 100, end: 999 }],
    ['bytes=900-5000', { kind: 'range', start: 900, end: 999 }],
    ['bytes=-10', { kind: 'range', start: 990, end: 999 }],
    ['bytes=-5000', { kind: 'range', start: 0, end: 999 }],
    ['bytes=1000-', { kind: 'unsatisfiable' }],
    ['bytes=50-10', { kind: 'unsatisfiable' }],
    ['bytes=-0', { kind: 'unsatisfiable' }],
    ['bytes=0-1,5-6', { kind: 'whole' }],
    ['items=0-1', { kind: 'whole' }],
    ['bytes=-', { kind: 'whole' }],
  ] as const)('%s of 1000 bytes', (header, expected) => {
    expect(parseByteRange(header, 1000)).toEqual(expected);
  });
});
