import type { BudgetHold, BudgetMeter } from '../budgets/budget-meter.js';
import { hasBudget } from '../budgets/budget-meter.js';
import type { FormatName } from '../ir/format-name.js';
import type { ApiKeyRecord } from '../storage/ports.js';
import { hasRateLimits, type KeyRateLimiter, type RateAdmission } from './key-rate-limiter.js';
import { rateLimitHeaders } from './rate-limit-headers.js';

/**
 * A key's limits and budgets as one call meets them: counted against the rate limits when it is
 * admitted, its worst case reserved once it is known, and finished exactly once when it ends.
 */
export class CallLimits {
  /** The reservation this call holds until it ends. */
  private hold: BudgetHold | undefined;
  /** The request id of a reservation that outlives the call (a video job's), released if the call fails. */
  private reservedUntilEntry: string | undefined;

  constructor(
    private readonly key: ApiKeyRecord | undefined,
    private readonly admission: RateAdmission | undefined,
    private readonly budgets: BudgetMeter,
  ) {}

  /** Whether the call has a budget to reserve against (its worst case need not be worked out otherwise). */
  get reserves(): boolean {
    return this.key !== undefined && hasBudget(this.key);
  }

  /**
   * Reserves the call's worst case against the key's budgets until the call ends; a refusal (402)
   * is a rejected promise. Undefined when there was nothing to wait for.
   */
  reserve(requestId: string, worstNanoUsd: bigint): Promise<void> | undefined {
    if (this.key === undefined || !hasBudget(this.key)) return undefined;
    const held = this.budgets.reserveForCall(this.key, requestId, worstNanoUsd);
    if (!(held instanceof Promise)) {
      this.hold = held;
      return undefined;
    }
    return held.then((hold) => {
      this.hold = hold;
    });
  }

  /** Reserves a worst case until the ledger entry of `requestId` settles it: a video job's, which ends after the call. */
  reserveUntilEntry(requestId: string, worstNanoUsd: bigint): Promise<void> | undefined {
    if (this.key === undefined || !hasBudget(this.key)) return undefined;
    // Noted first: releasing a reservation that was refused is a no-op.
    this.reservedUntilEntry = requestId;
    return this.budgets.reserve(this.key, requestId, worstNanoUsd);
  }

  /**
   * The call ended, its ledger entry recorded (and so settled) or, with `recorded: false`, none:
   * ends what the call reserved, frees its concurrency slot and charges `tokens` to the key's minute.
   */
  finish(tokens: number, recorded = true): void {
    this.admission?.finish(tokens);
    this.hold?.end(recorded);
    this.hold = undefined;
    if (!recorded && this.reservedUntilEntry !== undefined && this.key !== undefined) this.budgets.release(this.key.id, this.reservedUntilEntry);
    this.reservedUntilEntry = undefined;
  }

  /** The family's rate-limit headers for this key, on every answer (interface.md §8). */
  headers(format: FormatName | undefined): Record<string, string> {
    return this.addHeaders({}, format);
  }

  /** Adds the rate-limit headers to an answer's headers; the hot path's way, with no object in between. */
  addHeaders(headers: Record<string, string>, format: FormatName | undefined): Record<string, string> {
    const standing = this.admission?.standing;
    return standing === null || standing === undefined ? headers : rateLimitHeaders(standing, format, Date.now(), headers);
  }
}

/** Admits calls against their keys' rate limits and budgets (interface.md §8). */
export class KeyLimits {
  constructor(
    private readonly rates: KeyRateLimiter,
    readonly budgets: BudgetMeter,
  ) {}

  /** Counts a call against its key's rate limits; a refusal (429, `RateLimitedError`) is a rejected promise. */
  admit(key: ApiKeyRecord | undefined): CallLimits | Promise<CallLimits> {
    if (key === undefined || !hasRateLimits(key)) return new CallLimits(key, undefined, this.budgets);
    const admitted = this.rates.admit(key);
    return admitted instanceof Promise ? admitted.then((admission) => new CallLimits(key, admission, this.budgets)) : new CallLimits(key, admitted, this.budgets);
  }
}
