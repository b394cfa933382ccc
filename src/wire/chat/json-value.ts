/** Narrowing helpers for JSON read from the wire, where nothing can be trusted to have a shape. */

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function readString(record: Record<string, unknown>, key: string): string | undefined {
  const value = record[key];
  return typeof value === 'string' ? value : undefined;
}

/** A finite, non-negative count; anything else (null, NaN, negative, text) counts as absent. */
export function readCount(record: Record<string, unknown> | undefined, key: string): number | undefined {
  if (record === undefined) return undefined;
  const value = record[key];
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

export function readRecord(record: Record<string, unknown> | undefined, key: string): Record<string, unknown> | undefined {
  if (record === undefined) return undefined;
  const value = record[key];
  return isRecord(value) ? value : undefined;
}

/** Parses JSON text, returning undefined instead of throwing on malformed input. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
