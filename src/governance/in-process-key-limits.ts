import { hasBudget } from './budgets/budget-meter.js';
import type { BudgetAccount, InProcessBudgetMeter } from './budgets/in-process-budget-meter.js';
import type { ApiKeyRecord } from '../keys/api-key.js';
import { entryTokens, type LedgerEntry } from '../metering/ledger-entry.js';
import { hasRateLimits, type RateLimitStanding } from './rate-limits/key-rate-limiter.js';
import { CallLimitsBase } from './call-limits-base.js';
import type { CallLimits, KeyLimits } from './key-limits.js';
import type { KeyWindow, InProcessKeyRateLimiter } from './rate-limits/in-process-key-rate-limiter.js';

/**
 * Key limits held in this process. A call holds its key's window and budget account themselves,
 * not an admission and a hold made for it through the ports: one object a call in all. In the
 * gateway that took about 1.4 % off a limited key's CPU per call, measured beside the composition
 * of the ports in the same run (bench/README.md "Limits and budgets on the hot path").
 */
export class InProcessKeyLimits implements KeyLimits {
  constructor(
    readonly rates: InProcessKeyRateLimiter,
    readonly budgets: InProcessBudgetMeter,
  ) {}

  admit(key: ApiKeyRecord | undefined): CallLimits | Promise<CallLimits> {
    if (key === undefined || !hasRateLimits(key)) return new InProcessCallLimits(this, key, undefined);
    const window = this.rates.admitWindow(key);
    return window instanceof Promise ? window : new InProcessCallLimits(this, key, window);
  }
}

/** One call: its key's window while it counts there, and its reservation in the key's account. */
class InProcessCallLimits extends CallLimitsBase implements CallLimits {
  /** True until the call ends: its slot, its reservation and its entry are dealt with once. */
  private open = true;
  /** The key's account while this call holds `heldNanoUsd` in it. */
  private account: BudgetAccount | undefined;
  private heldNanoUsd = 0n;

  constructor(
    private readonly limits: InProcessKeyLimits,
    key: ApiKeyRecord | undefined,
    private readonly window: KeyWindow | undefined,
  ) {
    super(key, limits.budgets);
  }

  reserve(requestId: string, worstNanoUsd: bigint): Promise<void> | undefined {
    if (this.key === undefined || !hasBudget(this.key)) return undefined;
    const account = this.limits.budgets.holdInAccount(this.key, worstNanoUsd);
    if (account instanceof Promise) return account.then((loaded) => this.holdIn(loaded, worstNanoUsd));
    this.holdIn(account, worstNanoUsd);
    return undefined;
  }

  private holdIn(account: BudgetAccount, worstNanoUsd: bigint): void {
    this.account = account;
    this.heldNanoUsd = worstNanoUsd;
  }

  finish(entry?: LedgerEntry): void {
    if (!this.open) return;
    this.open = false;
    if (this.window !== undefined) this.limits.rates.end(this.window, entry === undefined ? 0 : entryTokens(entry));
    // The entry's cost is counted before the hold ends: the account is never short of both.
    if (entry !== undefined) this.settle(entry);
    if (this.account !== undefined) this.limits.budgets.endHold(this.account, this.heldNanoUsd);
  }

  protected get standing(): RateLimitStanding | null | undefined {
    return this.window?.standing;
  }
}
