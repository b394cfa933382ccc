import { describe, expect, it } from 'vitest';
import { usageOfCutStream } from './estimate-usage.js';

describe('the usage of a stream cut before its usage came', () => {
  it('keeps the input the upstream reported and charges at least the output counted in what was sent', () => {
    const reported = { inputUncached: 12, cacheRead: 3, cacheWrite: 0, output: 1, reasoning: 0 };
    expect(usageOfCutStream(reported, 4_000, 25)).toEqual({ ...reported, output: 25, estimated: true });
    // A reported figure above the count is kept.
    expect(usageOfCutStream({ ...reported, output: 40 }, 4_000, 25).output).toBe(40);
  });

  it('estimates the input from the body when the upstream had reported nothing', () => {
    expect(usageOfCutStream(undefined, 400, 7)).toEqual({ inputUncached: 100, cacheRead: 0, cacheWrite: 0, output: 7, reasoning: 0, estimated: true });
  });
});
