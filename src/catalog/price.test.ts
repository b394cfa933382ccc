import { describe, expect, it } from 'vitest';
import { costNanoUsd, formatMicros, parseDecimalMicros, parsePrice } from './price.js';

describe('price arithmetic', () => {
  it('parses decimal USD strings exactly into micro-USD', () => {
    expect(parseDecimalMicros('3.00')).toBe(3_000_000n);
    expect(parseDecimalMicros('0.075')).toBe(75_000n);
    expect(parseDecimalMicros('15')).toBe(15_000_000n);
    expect(() => parseDecimalMicros('0.0000001')).toThrow(RangeError);
    expect(() => parseDecimalMicros('1e3')).toThrow(RangeError);
  });

  it('formats micro-USD back to decimal strings', () => {
    expect(formatMicros(3_000_000n)).toBe('3.00');
    expect(formatMicros(75_000n)).toBe('0.075');
    expect(formatMicros(1_234_567n)).toBe('1.234567');
  });

  it.each([
    // [input, cacheRead, cacheWrite, output, reasoning, expected nano-USD]
    [1_000_000, 0, 0, 0, 0, 3_000_000_000n],
    [1, 0, 0, 0, 0, 3_000n],
    [0, 1_000_000, 0, 0, 0, 300_000_000n],
    [0, 0, 1_000_000, 0, 0, 3_750_000_000n],
    [0, 0, 0, 1, 0, 15_000n],
    [0, 0, 0, 0, 2, 30_000n],
    [565, 0, 0, 7, 0, 1_800_000n],
  ])('charges %i/%i/%i/%i/%i tokens %s nano-USD', (inputUncached, cacheRead, cacheWrite, output, reasoning, expected) => {
    const price = parsePrice({
      input_per_mtok: '3.00',
      output_per_mtok: '15.00',
      cache_read_per_mtok: '0.30',
      cache_write_per_mtok: '3.75',
      effective_from: '2026-01-01',
    });
    expect(costNanoUsd(price, { inputUncached, cacheRead, cacheWrite, output, reasoning })).toBe(expected);
  });

  it('rounds sub-nano remainders half up once', () => {
    const price = parsePrice({ input_per_mtok: '0.0015', output_per_mtok: '0' });
    // 1 token at 1500 micro-USD/Mtok = 1.5 nano-USD → 2; 3 tokens = 4.5 → 5 (not 2+2+2).
    expect(costNanoUsd(price, { inputUncached: 1, cacheRead: 0, cacheWrite: 0, output: 0, reasoning: 0 })).toBe(2n);
    expect(costNanoUsd(price, { inputUncached: 3, cacheRead: 0, cacheWrite: 0, output: 0, reasoning: 0 })).toBe(5n);
  });

  it('costs nothing without a price', () => {
    expect(costNanoUsd(undefined, { inputUncached: 10, cacheRead: 0, cacheWrite: 0, output: 10, reasoning: 0 })).toBe(0n);
  });
});
