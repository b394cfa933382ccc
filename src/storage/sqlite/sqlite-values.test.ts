import { describe, expect, it } from 'vitest';
import { writeSqliteTimestamp } from './sqlite-values.js';

describe('writeSqliteTimestamp', () => {
  it('writes exactly what toISOString does, one instant after another in any order, and refuses an invalid date as it does', () => {
    const instants = [
      Date.UTC(2026, 10, 27, 16, 0, 0, 0),
      Date.UTC(2026, 10, 27, 16, 0, 0, 7),
      Date.UTC(2026, 10, 27, 16, 0, 0, 999),
      Date.UTC(2026, 10, 27, 16, 0, 1, 0),
      Date.UTC(2026, 10, 27, 16, 0, 0, 42),
      -1,
      -1_000,
      -1_001,
      0,
      Date.UTC(1969, 11, 31, 23, 59, 59, 500),
      Date.UTC(-1, 0, 1, 0, 0, 0, 1),
      Date.UTC(12_000, 0, 1, 0, 0, 0, 10),
      8.64e15,
    ];
    for (let step = 0; step < 5_000; step++) instants.push(Date.UTC(2026, 10, 27) + step * 337);
    for (const ms of instants) expect(writeSqliteTimestamp(new Date(ms))).toBe(new Date(ms).toISOString());
    expect(() => writeSqliteTimestamp(new Date(Number.NaN))).toThrow(RangeError);
  });
});
