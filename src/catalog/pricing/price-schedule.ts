import { derivedPerObject } from './derived-per-object.js';
import type { DatasetOrigin, PriceEntry, PriceSchedule } from './model-price.js';

/** UTC midnight of a `YYYY-MM-DD` date, in milliseconds. */
function startOf(day: string): number {
  return Date.parse(`${day}T00:00:00Z`);
}

/** True for a `YYYY-MM-DD` that names a real day (not "2026-02-30"). */
function isCalendarDay(day: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return false;
  const start = startOf(day);
  return !Number.isNaN(start) && new Date(start).toISOString().startsWith(day);
}

/**
 * The entries sorted oldest first. Two entries on one day are a configuration error, and so is a
 * date that is no day: it would compare as NaN, and such an entry would be in force at any time.
 */
export function scheduleOf(entries: readonly PriceEntry[], source: PriceSchedule['source'], origin?: DatasetOrigin): PriceSchedule {
  for (const entry of entries) {
    if (!isCalendarDay(entry.effectiveFrom)) throw new RangeError(`"${entry.effectiveFrom}" is not a YYYY-MM-DD date`);
  }
  const sorted = [...entries].sort((left, right) => startOf(left.effectiveFrom) - startOf(right.effectiveFrom));
  for (let index = 1; index < sorted.length; index += 1) {
    if (sorted[index]?.effectiveFrom === sorted[index - 1]?.effectiveFrom) {
      throw new RangeError(`two prices take effect on ${sorted[index]?.effectiveFrom}`);
    }
  }
  return { entries: sorted, source, ...(origin === undefined ? {} : { origin }) };
}

/** Each schedule's entry start times, parsed once: a call is priced on every request. */
const startTimesOf = derivedPerObject((schedule: PriceSchedule): readonly number[] => schedule.entries.map((entry) => startOf(entry.effectiveFrom)));

/** The price in force at `at`: the latest entry that had taken effect; undefined before the first. */
export function priceAt(schedule: PriceSchedule | undefined, at: Date | number): PriceEntry | undefined {
  if (schedule === undefined) return undefined;
  const time = typeof at === 'number' ? at : at.getTime();
  const times = startTimesOf(schedule);
  let current: PriceEntry | undefined;
  for (let index = 0; index < times.length && (times[index] as number) <= time; index += 1) current = schedule.entries[index];
  return current;
}

/** Entries that take effect after `at`: the prices published as scheduled. */
export function scheduledAfter(schedule: PriceSchedule | undefined, at: Date): PriceEntry[] {
  if (schedule === undefined) return [];
  return schedule.entries.filter((entry) => startOf(entry.effectiveFrom) > at.getTime());
}
