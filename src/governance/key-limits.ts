import type { FormatName } from '../ir/format-name.js';
import type { ApiKeyRecord } from '../keys/api-key.js';
import type { LedgerEntry } from '../metering/ledger-entry.js';

/**
 * A video job's reservation, made by the call that submits the job. Once the job exists it is the
 * job's: filed under the job's id in the key's budgets, it stays past the call until the job's
 * ledger entry settles it, whichever instance ends the job. `release` gives it back when no job
 * comes of the submit (or the submit found the job of an earlier attempt, already reserved for).
 */
export interface JobReservation {
  release(): void;
}

/** The reservation of a key without a budget: nothing to give back. */
export const noJobReservation: JobReservation = { release: () => undefined };

/**
 * A key's limits and budgets as one call meets them: counted against the rate limits when it is
 * admitted, its worst case reserved once it is known, and finished — with its ledger entry, which
 * settles the reservation — when it ends. The reservation travels no other way.
 */
export interface CallLimits {
  /** Whether the call has a budget to reserve against (its worst case need not be worked out otherwise). */
  readonly reserves: boolean;
  /**
   * Reserves the call's worst case against the key's budgets until the call finishes; a refusal
   * (402) is a rejected promise. Undefined when there was nothing to wait for.
   */
  reserve(requestId: string, worstNanoUsd: bigint): Promise<void> | undefined;
  /** Reserves a video job's worst case under its id, to outlive the call (see `JobReservation`); a refusal (402) is a rejected promise. */
  reserveForJob(jobId: string, worstNanoUsd: bigint): Promise<JobReservation>;
  /**
   * The call ended. With its ledger entry, as metering recorded it: the entry's cost counts in the
   * key's budgets from now on in place of the reservation, and its tokens in the key's window.
   * Without one (nothing was recorded): the reservation is given back whole. Either way the
   * concurrency slot is freed. Only the first call counts.
   */
  finish(entry?: LedgerEntry): void;
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
