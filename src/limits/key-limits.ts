import type { BudgetMeter } from '../budgets/budget-meter.js';
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
  private reservedFor: string | undefined;

  constructor(
    private readonly key: ApiKeyRecord | undefined,
    private readonly admission: RateAdmission | undefined,
    private readonly budgets: BudgetMeter,
  ) {}

  /** Reserves the call's worst case against the key's budgets, or throws 402. */
  async reserve(requestId: string, worstNanoUsd: bigint): Promise<void> {
    if (this.key === undefined || !hasBudget(this.key)) return;
    await this.budgets.reserve(this.key, requestId, worstNanoUsd);
    this.reservedFor = requestId;
  }

  /**
   * The call ended. Its ledger entry, if it has one, settles the reservation; `recorded: false`
   * releases it. Frees the concurrency slot and charges `tokens` to the key's minute.
   */
  finish(tokens: number, recorded = true): void {
    this.admission?.finish(tokens);
    if (!recorded && this.reservedFor !== undefined && this.key !== undefined) this.budgets.release(this.key.id, this.reservedFor);
    this.reservedFor = undefined;
  }

  /** The family's rate-limit headers for this key, on every answer (interface.md §8). */
  headers(format: FormatName | undefined): Record<string, string> {
    const standing = this.admission?.standing;
    return standing === null || standing === undefined ? {} : rateLimitHeaders(standing, format, Date.now());
  }
}

/** Admits calls against their keys' rate limits and budgets (interface.md §8). */
export class KeyLimits {
  constructor(
    private readonly rates: KeyRateLimiter,
    readonly budgets: BudgetMeter,
  ) {}

  /** Counts a call against its key's rate limits, or throws 429 (`RateLimitedError`). */
  async admit(key: ApiKeyRecord | undefined): Promise<CallLimits> {
    const admission = key !== undefined && hasRateLimits(key) ? await this.rates.admit(key) : undefined;
    return new CallLimits(key, admission, this.budgets);
  }
}
