import { describe, expect, it } from 'vitest';
import { nanoUsdToUsd } from './nano-usd-to-usd.js';

describe('nanoUsdToUsd', () => {
  it.each([
    [0n, 0],
    [1n, 1e-9],
    [400_000_000n, 0.4],
    [1_234_567_890n, 1.23456789],
  ])('turns %s nano-USD into %s USD', (nano, usd) => {
    expect(nanoUsdToUsd(nano)).toBe(usd);
  });

  it('keeps the cents of totals past 2^53 nano-USD', () => {
    // 12,345,678.91 USD: as one Number the nano value would lose its last digits.
    expect(nanoUsdToUsd(12_345_678_910_000_001n)).toBe(12_345_678.91);
  });
});
