import { describe, expect, it } from 'vitest';
import { formatPicoUsd, parseUsdToPico, withMarkup } from './decimal-usd.js';

describe('parseUsdToPico', () => {
  it.each([
    ['3.00', 3_000_000_000_000n],
    ['15', 15_000_000_000_000n],
    ['0.075', 75_000_000_000n],
    ['0.000000000001', 1n],
    ['0.1000000000000', 100_000_000_000n],
  ])('reads %s exactly', (text, pico) => {
    expect(parseUsdToPico(text)).toBe(pico);
  });

  it.each(['', '-1', '1e-7', '1.', '.5', ' 3', '3,00', 'NaN', '0.0000000000001'])('refuses %j', (text) => {
    expect(() => parseUsdToPico(text)).toThrow(RangeError);
  });
});

describe('formatPicoUsd', () => {
  it.each([
    [3_000_000_000_000n, '3.00'],
    [75_000_000_000n, '0.075'],
    [3_375_000_000_000n, '3.375'],
    [1n, '0.000000000001'],
    [0n, '0.00'],
  ])('writes %s as %s', (pico, text) => {
    expect(formatPicoUsd(pico)).toBe(text);
  });

  it('round-trips what it parses', () => {
    for (const text of ['0.30', '22.50', '0.0004', '1234.567891234567']) expect(formatPicoUsd(parseUsdToPico(text))).toBe(text);
  });
});

describe('withMarkup', () => {
  it('scales a rate by the percentage exactly', () => {
    expect(withMarkup(parseUsdToPico('3.00'), '12.5')).toBe(parseUsdToPico('3.375'));
    expect(withMarkup(parseUsdToPico('0.30'), '0.0001')).toBe(parseUsdToPico('0.30000030'));
    expect(withMarkup(parseUsdToPico('15.00'), '100')).toBe(parseUsdToPico('30.00'));
  });

  it('leaves the rate alone without a markup', () => {
    expect(withMarkup(parseUsdToPico('3.00'), undefined)).toBe(parseUsdToPico('3.00'));
    expect(withMarkup(parseUsdToPico('3.00'), '0')).toBe(parseUsdToPico('3.00'));
  });

  it('refuses a markup with more than four decimals, a negative one, or one finer than a pico-USD', () => {
    expect(() => withMarkup(parseUsdToPico('3.00'), '1.00001')).toThrow(RangeError);
    expect(() => withMarkup(parseUsdToPico('3.00'), '-10')).toThrow(RangeError);
    expect(() => withMarkup(1n, '12.5')).toThrow(RangeError);
  });
});
