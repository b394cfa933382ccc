import type { ApiKeyRecord, LedgerEntry } from '../storage/ports.js';

/**
 * Spend budgets per key — absolute, per UTC day, per UTC month (interface.md §8) — that reserve
 * and settle: before the upstream call the request's worst case is reserved, or refused with 402
 * when it no longer fits; its ledger entry then replaces the reservation with the real cost.
 * Spend can exceed a budget only by what reservations of calls in flight overstate... never more.
 *
 * This is the port: the in-memory implementation holds per process; a shared one (Redis) holds
 * across instances.
 */
export interface BudgetMeter {
  /** Reserves `worstNanoUsd` for the call `requestId`, or throws `budget_exhausted` (402). */
  /** A refusal is a rejected promise; an in-process implementation may reserve without one (undefined). */
  reserve(key: ApiKeyRecord, requestId: string, worstNanoUsd: bigint): Promise<void> | undefined;
  /** A ledger entry was recorded: its cost counts from now on and its reservation (if any) ends. */
  settle(entry: LedgerEntry): void;
  /** Ends a reservation whose call will have no ledger entry at all. */
  release(keyId: string, requestId: string): void;
}

/** Whether a key has a budget this port enforces (keys without one skip it entirely). */
export function hasBudget(key: ApiKeyRecord): boolean {
  return key.budgetNanoUsd !== null || key.dailyBudgetNanoUsd !== null || key.monthlyBudgetNanoUsd !== null;
}
