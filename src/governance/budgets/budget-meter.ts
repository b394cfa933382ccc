import type { ApiKeyRecord } from '../../keys/api-key.js';
import type { LedgerEntry } from '../../metering/ledger-entry.js';

/**
 * Spend budgets per key — absolute, per UTC day, per UTC month (docs/api.md, "Budgets") — that reserve
 * and settle: before the upstream call the request's worst case is reserved, or refused with 402
 * when it no longer fits; its ledger entry then replaces the reservation with the real cost.
 * A call's real cost can exceed its reserved worst case only where the estimate could not bound
 * it (docs/api.md, "Budgets"), so spend passes a budget by no more than that.
 *
 * This is the port: the in-memory implementation holds per process; a shared one (Redis) holds
 * across instances.
 */
export interface BudgetMeter {
  /**
   * Reserves `worstNanoUsd` for a call whose ledger entry, if it gets one, is recorded before the
   * call ends (text and image calls): the reservation ends with the call, `hold.end(recorded)`, its
   * entry's cost having been counted by `settle`. A refusal (402, `budget_exhausted`) is a rejected
   * promise; an in-process implementation may answer without one.
   */
  reserveForCall(key: ApiKeyRecord, requestId: string, worstNanoUsd: bigint): BudgetHold | Promise<BudgetHold>;
  /**
   * Reserves `worstNanoUsd` until the ledger entry of `requestId` is settled, however much later
   * and by whichever instance (a video job), or `release` ends it; a reservation nobody ends lapses
   * after a time-to-live. A refusal is a rejected promise; undefined when there was nothing to wait for.
   */
  reserve(key: ApiKeyRecord, requestId: string, worstNanoUsd: bigint): Promise<void> | undefined;
  /** A ledger entry was recorded: its cost counts from now on, and a reservation made by `reserve` for it ends. */
  settle(entry: LedgerEntry): void;
  /** Ends a reservation made by `reserve` whose call will have no ledger entry at all. */
  release(keyId: string, requestId: string): void;
}

/** One call's reservation. */
export interface BudgetHold {
  /** The call ended, with an entry recorded (and settled) or none; ends the reservation. Once only. */
  end(recorded: boolean): void;
}

/** The hold of a key without a budget: nothing to end. */
export const noHold: BudgetHold = { end: () => undefined };

/** Whether a key has a budget this port enforces (keys without one skip it entirely). */
export function hasBudget(key: ApiKeyRecord): boolean {
  return key.budgetNanoUsd !== null || key.dailyBudgetNanoUsd !== null || key.monthlyBudgetNanoUsd !== null;
}
