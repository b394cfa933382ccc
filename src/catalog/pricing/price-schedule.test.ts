import { describe, expect, it } from 'vitest';
import type { PriceEntry } from './model-price.js';
import { priceAt, scheduledAfter, scheduleOf } from './price-schedule.js';

const first: PriceEntry = { effectiveFrom: '2026-01-01' };
const second: PriceEntry = { effectiveFrom: '2026-07-01' };
const third: PriceEntry = { effectiveFrom: '2027-01-01' };

describe('scheduleOf', () => {
  it('sorts entries oldest first and keeps where they came from', () => {
    expect(scheduleOf([third, first, second], 'config')).toEqual({ entries: [first, second, third], source: 'config' });
  });

  it('accepts the first day of the epoch, from which dataset prices apply', () => {
    expect(scheduleOf([first, { effectiveFrom: '1970-01-01' }], 'vendor-dataset').entries.map((entry) => entry.effectiveFrom)).toEqual(['1970-01-01', '2026-01-01']);
  });

  it.each(['2026-02-30', '2026-13-01', '2026-1-1', '01/02/2026', ''])('refuses %j, which is no day (it would be in force at any time)', (day) => {
    expect(() => scheduleOf([first, { effectiveFrom: day }], 'config')).toThrow(RangeError);
  });

  it('refuses two prices taking effect on one day', () => {
    expect(() => scheduleOf([first, { effectiveFrom: '2026-01-01' }], 'config')).toThrow(RangeError);
  });
});

describe('priceAt', () => {
  const schedule = scheduleOf([first, second, third], 'vendor-dataset');

  it('has no price before the first entry takes effect', () => {
    expect(priceAt(schedule, new Date('2025-12-31T23:59:59.999Z'))).toBeUndefined();
    expect(priceAt(undefined, new Date('2026-03-01T00:00:00Z'))).toBeUndefined();
  });

  it('switches at midnight UTC of the effective date', () => {
    expect(priceAt(schedule, new Date('2026-01-01T00:00:00.000Z'))).toBe(first);
    expect(priceAt(schedule, new Date('2026-06-30T23:59:59.999Z'))).toBe(first);
    expect(priceAt(schedule, new Date('2026-07-01T00:00:00.000Z'))).toBe(second);
    // Midnight in a zone east of UTC is still the day before in UTC.
    expect(priceAt(schedule, new Date('2026-07-01T00:30:00+02:00'))).toBe(first);
  });

  it('keeps the latest entry in force after it took effect', () => {
    expect(priceAt(schedule, new Date('2030-05-05T12:00:00Z'))).toBe(third);
  });
});

describe('scheduledAfter', () => {
  const schedule = scheduleOf([first, second, third], 'config');

  it('lists only the prices that take effect later', () => {
    expect(scheduledAfter(schedule, new Date('2026-03-01T00:00:00Z'))).toEqual([second, third]);
    expect(scheduledAfter(schedule, new Date('2026-07-01T00:00:00Z'))).toEqual([third]);
    expect(scheduledAfter(schedule, new Date('2027-01-01T00:00:00Z'))).toEqual([]);
    expect(scheduledAfter(undefined, new Date())).toEqual([]);
  });
});
