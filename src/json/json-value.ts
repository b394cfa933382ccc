/**
 * Narrowing helpers for JSON read from the wire or from request bodies, where nothing can be
 * trusted to have a shape until proven otherwise; they keep decoders free of casts. Shared by the
 * formats, providers, wire helpers and the simulator, so it depends on nothing.
 */

export type JsonRecord = Record<string, unknown>;

export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function asRecord(value: unknown): JsonRecord | undefined {
  return isRecord(value) ? value : undefined;
}

/** The array, or an empty one when the value is anything else. */
export function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

export function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** A finite number; NaN and the infinities count as absent. */
export function asNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

export function readString(record: Readonly<JsonRecord>, key: string): string | undefined {
  return asString(record[key]);
}

export function readNumber(record: Readonly<JsonRecord>, key: string): number | undefined {
  return asNumber(record[key]);
}

/** A finite, non-negative count; anything else (null, NaN, negative, text) counts as absent. */
export function readCount(record: Readonly<JsonRecord> | undefined, key: string): number | undefined {
  if (record === undefined) return undefined;
  const value = asNumber(record[key]);
  return value !== undefined && value >= 0 ? value : undefined;
}

export function readRecord(record: Readonly<JsonRecord> | undefined, key: string): JsonRecord | undefined {
  if (record === undefined) return undefined;
  return asRecord(record[key]);
}

/** The array at `key`, or undefined (not empty) when it is missing or not an array. */
export function readArray(record: Readonly<JsonRecord>, key: string): readonly unknown[] | undefined {
  const value = record[key];
  return Array.isArray(value) ? value : undefined;
}

/** Parses JSON text, returning undefined instead of throwing on malformed input. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
