import type { BudgetHold, BudgetMeter } from './budgets/budget-meter.js';
import { hasBudget } from './budgets/budget-meter.js';
import type { ApiKeyRecord } from '../keys/api-key.js';
import { entryTokens, type LedgerEntry } from '../metering/ledger-entry.js';
import { hasRateLimits, type KeyRateLimiter, type RateAdmission, type RateLimitStanding } from './rate-limits/key-rate-limiter.js';
import { CallLimitsBase } from './call-limits-base.js';
import type { CallLimits, KeyLimits } from './key-limits.js';

/**
 * Key limits through the rate-limit and budget ports, whichever stores back them: the limits shared
 * through Redis. (Limits held in this process take a leaner way: `InProcessKeyLimits`.)
 */
export class SharedKeyLimits implements KeyLimits {
  constructor(
    private readonly rates: KeyRateLimiter,
    private readonly budgets: BudgetMeter,
  ) {}

  admit(key: ApiKeyRecord | undefined): CallLimits | Promise<CallLimits> {
    if (key === undefined || !hasRateLimits(key)) return new SharedCallLimits(key, undefined, this.budgets);
    const admitted = this.rates.admit(key);
    return admitted instanceof Promise ? admitted.then((admission) => new SharedCallLimits(key, admission, this.budgets)) : new SharedCallLimits(key, admitted, this.budgets);
  }
}

/** A call's limits through the two ports: an admission and a hold, ended (and the entry settled) once however often the call is finished. */
class SharedCallLimits extends CallLimitsBase implements CallLimits {
  /** The reservation this call holds until it ends. */
  private hold: BudgetHold | undefined;
  private finished = false;

  constructor(
    key: ApiKeyRecord | undefined,
    private readonly admission: RateAdmission | undefined,
    budgets: BudgetMeter,
  ) {
    super(key, budgets);
  }

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

  finish(entry?: LedgerEntry): void {
    if (this.finished) return;
    this.finished = true;
    this.admission?.finish(entry === undefined ? 0 : entryTokens(entry));
    // Settling the entry ends the shared reservation filed under its request id, in the same script.
    if (entry !== undefined) this.settle(entry);
    this.hold?.end(entry !== undefined);
    this.hold = undefined;
  }

  protected get standing(): RateLimitStanding | null | undefined {
    return this.admission?.standing;
  }
}
