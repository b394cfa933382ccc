import { describe, expect, it } from 'vitest';
import { parseUsdToPico } from '../../catalog/pricing/decimal-usd.js';
import { worstVideoCostNanoUsd } from './video-worst-case.js';

describe('the worst case of a video job', () => {
  it('is every second asked at the variant price, exact to the nano-dollar', () => {
    expect(worstVideoCostNanoUsd({ perSecond: parseUsdToPico('0.10') }, { seconds: 8 })).toBe(800_000_000n);
    expect(worstVideoCostNanoUsd({ perSecond: parseUsdToPico('0.5') }, { seconds: 12 })).toBe(6_000_000_000n);
  });

  it('rounds a sub-nano price half up, as every charge is rounded', () => {
    // 3 s at 0.0000000015 USD/s = 4.5 nano-USD → 5.
    expect(worstVideoCostNanoUsd({ perSecond: 1_500n }, { seconds: 3 })).toBe(5n);
  });

  it('is nothing for a free variant', () => {
    expect(worstVideoCostNanoUsd({ perSecond: 0n }, { seconds: 20 })).toBe(0n);
  });
});
