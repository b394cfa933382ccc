import { spendPeriods } from '../storage/ledger-increments.js';
import type { ApiKeyRecord, KeySpend, LedgerEntry } from '../storage/ports.js';
import { hasBudget, type BudgetMeter } from './budget-meter.js';
import { budgetRefusal, type BudgetKind } from './budget-refusal.js';

interface Reservation {
  readonly nanoUsd: bigint;
  readonly expiresAt: number;
}

/** One key's spend as this process knows it: the stored running totals when first seen, plus every entry settled since. */
interface KeyBudgetState {
  total: bigint;
  /** Spend per UTC month (`YYYY-MM`) and day (`YYYY-MM-DD`); only the current ones are read. */
  readonly periods: Map<string, bigint>;
  reserved: bigint;
  readonly reservations: Map<string, Reservation>;
}

/** How long a reservation may outlive a call that never settled it (a lost entry must not block a key forever). */
const defaultReservationTtlMs = 2 * 60 * 60 * 1000;

/**
 * Budgets held in this process. A key's totals are read once from the running totals the ledger
 * keeps (three indexed rows, never history) and from then on moved by the entries this process
 * records, so a check is map arithmetic and the reserve-then-check step runs with no await in
 * between: concurrent calls cannot both take the last of a budget. Spend recorded by other
 * instances is seen after a restart; the shared implementation sees it at once.
 */
export class MemoryBudgetMeter implements BudgetMeter {
  private readonly states = new Map<string, KeyBudgetState | Promise<KeyBudgetState>>();

  constructor(
    private readonly readSpend: (keyId: string, at: Date) => Promise<KeySpend>,
    private readonly now: () => number = Date.now,
    private readonly reservationTtlMs = defaultReservationTtlMs,
  ) {}

  reserve(key: ApiKeyRecord, requestId: string, worstNanoUsd: bigint): Promise<void> | undefined {
    if (!hasBudget(key)) return undefined;
    const known = this.states.get(key.id);
    if (known === undefined || known instanceof Promise) return this.stateOf(key.id).then((state) => this.reserveIn(state, key, requestId, worstNanoUsd));
    // A loaded key is checked and reserved in one synchronous step: no other call can come between.
    try {
      this.reserveIn(known, key, requestId, worstNanoUsd);
      return undefined;
    } catch (error) {
      return Promise.reject(error);
    }
  }

  private reserveIn(state: KeyBudgetState, key: ApiKeyRecord, requestId: string, worstNanoUsd: bigint): void {
    const now = this.now();
    if (!this.fits(key, state, now, worstNanoUsd)) {
      // Reservations lost to calls that never settled expire; look for them only when they matter.
      this.dropExpired(state, now);
      this.refuse(key, state, now, worstNanoUsd);
    }
    state.reserved += worstNanoUsd;
    state.reservations.set(requestId, { nanoUsd: worstNanoUsd, expiresAt: now + this.reservationTtlMs });
  }

  private fits(key: ApiKeyRecord, state: KeyBudgetState, now: number, worstNanoUsd: bigint): boolean {
    const { month, day } = spendPeriods(now);
    const committed = state.reserved + worstNanoUsd;
    return (
      (key.budgetNanoUsd === null || state.total + committed <= key.budgetNanoUsd) &&
      (key.monthlyBudgetNanoUsd === null || (state.periods.get(month) ?? 0n) + committed <= key.monthlyBudgetNanoUsd) &&
      (key.dailyBudgetNanoUsd === null || (state.periods.get(day) ?? 0n) + committed <= key.dailyBudgetNanoUsd)
    );
  }

  /** Throws the 402 naming the first budget the worst case does not fit, if any. */
  private refuse(key: ApiKeyRecord, state: KeyBudgetState, now: number, worstNanoUsd: bigint): void {
    const { month, day } = spendPeriods(now);
    const committed = state.reserved + worstNanoUsd;
    refuseIfOver('absolute', key.budgetNanoUsd, state.total, committed, worstNanoUsd);
    refuseIfOver('monthly', key.monthlyBudgetNanoUsd, state.periods.get(month) ?? 0n, committed, worstNanoUsd);
    refuseIfOver('daily', key.dailyBudgetNanoUsd, state.periods.get(day) ?? 0n, committed, worstNanoUsd);
  }

  settle(entry: LedgerEntry): void {
    if (entry.keyId === null) return;
    const state = this.states.get(entry.keyId);
    if (state === undefined) return;
    if (state instanceof Promise) {
      // Still loading (see stateOf): counted once loaded, erring towards counting twice rather
      // than not at all.
      void state.then((loaded) => this.apply(loaded, entry), () => undefined);
      return;
    }
    this.apply(state, entry);
  }

  release(keyId: string, requestId: string): void {
    const state = this.states.get(keyId);
    if (state === undefined || state instanceof Promise) return;
    this.endReservation(state, requestId);
  }

  private apply(state: KeyBudgetState, entry: LedgerEntry): void {
    this.endReservation(state, entry.requestId);
    const { month, day } = spendPeriods(entry.createdAt);
    state.total += entry.costNanoUsd;
    state.periods.set(month, (state.periods.get(month) ?? 0n) + entry.costNanoUsd);
    state.periods.set(day, (state.periods.get(day) ?? 0n) + entry.costNanoUsd);
  }

  private endReservation(state: KeyBudgetState, requestId: string): void {
    const reservation = state.reservations.get(requestId);
    if (reservation === undefined) return;
    state.reservations.delete(requestId);
    state.reserved -= reservation.nanoUsd;
  }

  private dropExpired(state: KeyBudgetState, now: number): void {
    for (const [requestId, reservation] of state.reservations) {
      if (reservation.expiresAt <= now) this.endReservation(state, requestId);
    }
  }

  /**
   * The key's state, read from the running totals on first use. Only calls admitted before the
   * key had a budget can settle while the read runs (every later call awaits this same read
   * before reserving), and their entries may or may not be stored yet when it runs.
   */
  private async stateOf(keyId: string): Promise<KeyBudgetState> {
    const known = this.states.get(keyId);
    if (known !== undefined) return known;
    const at = new Date(this.now());
    const loading = this.readSpend(keyId, at).then(
      (spend) => {
        const { month, day } = spendPeriods(at);
        const state: KeyBudgetState = { total: spend.total, periods: new Map([[month, spend.month], [day, spend.day]]), reserved: 0n, reservations: new Map() };
        this.states.set(keyId, state);
        return state;
      },
      (error: unknown) => {
        this.states.delete(keyId);
        throw error;
      },
    );
    this.states.set(keyId, loading);
    return loading;
  }
}

function refuseIfOver(kind: BudgetKind, limit: bigint | null, spent: bigint, committed: bigint, worst: bigint): void {
  if (limit === null || spent + committed <= limit) return;
  throw budgetRefusal(kind, limit, spent, committed, worst);
}
