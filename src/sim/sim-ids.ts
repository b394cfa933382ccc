/**
 * Ids and timestamps derived from a per-simulator request counter and a fixed epoch, so two
 * simulators fed the same requests in the same order produce byte-identical responses.
 */

/** 2026-01-01T00:00:00Z, in Unix seconds. */
export const simEpochSeconds = 1_767_225_600;

export interface SimIdentity {
  /** The request's position in this simulator's life, starting at 1. */
  readonly sequence: number;
  /** Zero-padded counter used inside every id of this request. */
  readonly tag: string;
  readonly createdAt: number;
}

export function simIdentity(sequence: number): SimIdentity {
  return {
    sequence,
    tag: `sim${String(sequence).padStart(6, '0')}`,
    createdAt: simEpochSeconds + sequence,
  };
}
