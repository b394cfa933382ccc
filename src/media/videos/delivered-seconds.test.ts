import { describe, expect, it } from 'vitest';
import { deliveredSeconds } from './delivered-seconds.js';
import { estimatedProgress, unfinishedProgress } from './video-progress.js';

describe('deliveredSeconds', () => {
  it.each([
    ['the upstream confirms what was asked', 8, 8, 8.02, 8],
    ['the upstream confirms less than asked', 8, 4, 4.0, 4],
    ['nothing confirmed: the accepted length, checked against the file', 8, undefined, 7.96, 8],
    ['the file is shorter than claimed', 8, 8, 4.04, 4],
    ['no file measure', 12, undefined, undefined, 12],
    ['a nonsense confirmation is ignored', 4, Number.NaN, undefined, 4],
  ])('%s', (_name, asked, confirmed, measured, expected) => {
    expect(deliveredSeconds(asked, confirmed, measured)).toBe(expected);
  });
});

describe('progress', () => {
  it('is estimated from elapsed time, rising and never reaching 100', () => {
    const points = [0, 1_000, 30_000, 90_000, 600_000, 10_000_000].map((elapsed) => estimatedProgress(elapsed, 90_000));
    expect(points).toEqual([...points].sort((left, right) => left - right));
    expect(points[0]).toBe(0);
    expect(Math.max(...points)).toBe(99);
  });

  it('takes the upstream figure when there is one, clamped below 100', () => {
    expect(unfinishedProgress(42.7, 0, 1)).toBe(42);
    expect(unfinishedProgress(100, 0, 1)).toBe(99);
    expect(unfinishedProgress(-3, 0, 1)).toBe(0);
    expect(unfinishedProgress(undefined, 90_000, 90_000)).toBe(63);
  });
});
