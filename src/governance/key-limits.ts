import type { FormatName } from '../ir/format-name.js';
import type { ApiKeyRecord } from '../storage/ports.js';

/**
 * A key's limits and budgets as one call meets them: counted against the rate limits when it is
 * admitted, its worst case reserved once it is known, and finished when it ends.
 */
export interface CallLimits {
  /** Whether the call has a budget to reserve against (its worst case need not be worked out otherwise). */
  readonly reserves: boolean;
  /**
   * Reserves the call's worst case against the key's budgets until the call ends; a refusal (402)
   * is a rejected promise. Undefined when there was nothing to wait for.
   */
  reserve(requestId: string, worstNanoUsd: bigint): Promise<void> | undefined;
  /** Reserves a worst case until the ledger entry of `requestId` settles it: a video job's, which ends after the call. */
  reserveUntilEntry(requestId: string, worstNanoUsd: bigint): Promise<void> | undefined;
  /**
   * The call ended, its ledger entry recorded (and so settled) or, with `recorded: false`, none:
   * ends what the call reserved, frees its concurrency slot and charges `tokens` to the key's
   * window. The first call ends the call; a later one can still release a reservation until entry.
   */
  finish(tokens: number, recorded?: boolean): void;
  /** The family's rate-limit headers for this key, on every answer (docs/api.md, "Rate-limit headers"). */
  headers(format: FormatName | undefined): Record<string, string>;
  /** Adds the rate-limit headers to an answer's headers; the hot path's way, with no object in between. */
  addHeaders(headers: Record<string, string>, format: FormatName | undefined): Record<string, string>;
}

/** Admits calls against their keys' rate limits and budgets (docs/api.md, "Limits and budgets"). */
export interface KeyLimits {
  /** Counts a call against its key's rate limits; a refusal (429, `RateLimitedError`) is a rejected promise. */
  admit(key: ApiKeyRecord | undefined): CallLimits | Promise<CallLimits>;
}
