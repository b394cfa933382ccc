/**
 * Conversions from what a driver hands back to what the ports promise. Drivers differ: pg
 * returns 64-bit integers and sums as strings, better-sqlite3 returns numbers, and both may
 * return Date or ISO text for timestamps depending on the column type.
 */

/** Reads a 64-bit integer without ever passing through a float. */
export function readBigInt(value: unknown): bigint {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'string' && /^-?\d+$/.test(value)) return BigInt(value);
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  throw new TypeError(`Expected an integer from the database, got ${describe(value)}.`);
}

export function readNullableBigInt(value: unknown): bigint | null {
  return value === null || value === undefined ? null : readBigInt(value);
}

/** Reads a count or token sum; these stay far below 2^53. */
export function readNumber(value: unknown): number {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value)) return Number(value);
  throw new TypeError(`Expected a number from the database, got ${describe(value)}.`);
}

export function readNullableNumber(value: unknown): number | null {
  return value === null || value === undefined ? null : readNumber(value);
}

export function readDate(value: unknown): Date {
  const date = value instanceof Date ? value : typeof value === 'string' ? new Date(value) : undefined;
  if (date === undefined || Number.isNaN(date.getTime())) {
    throw new TypeError(`Expected a timestamp from the database, got ${describe(value)}.`);
  }
  return date;
}

export function readNullableDate(value: unknown): Date | null {
  return value === null || value === undefined ? null : readDate(value);
}

/** Scope lists are JSON array text; SQL NULL means "no restriction". */
export function readStringList(value: unknown): string[] | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'string') throw new TypeError(`Expected JSON text from the database, got ${describe(value)}.`);
  const parsed: unknown = JSON.parse(value);
  if (!Array.isArray(parsed) || !parsed.every((item): item is string => typeof item === 'string')) {
    throw new TypeError('Expected a JSON array of strings from the database.');
  }
  return parsed;
}

export function writeStringList(list: readonly string[] | null): string | null {
  return list === null ? null : JSON.stringify(list);
}

function describe(value: unknown): string {
  return value === null ? 'null' : typeof value;
}
