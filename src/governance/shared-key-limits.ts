import type { BudgetHold, BudgetMeter } from './budgets/budget-meter.js';
import { hasBudget } from './budgets/budget-meter.js';
import type { ApiKeyRecord } from '../storage/ports.js';
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

/** A call's limits through the two ports: an admission and a hold, each ending once however often the call is finished. */
class SharedCallLimits extends CallLimitsBase implements CallLimits {
  /** The reservation this call holds until it ends. */
  private hold: BudgetHold | undefined;

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

  finish(tokens: number, recorded = true): void {
    this.admission?.finish(tokens);
    this.hold?.end(recorded);
    this.hold = undefined;
    this.endReservationUntilEntry(recorded);
  }

  protected get standing(): RateLimitStanding | null | undefined {
    return this.admission?.standing;
  }
}
