import { spendPeriods } from '../../storage/ledger-increments.js';
import type { ApiKeyRecord } from '../../keys/api-key.js';
import type { LedgerEntry } from '../../metering/ledger-entry.js';
import type { KeySpend } from '../../metering/usage-ledger.js';
import { hasBudget, noHold, type BudgetHold, type BudgetMeter } from './budget-meter.js';
import { budgetRefusal, type BudgetKind } from './budget-refusal.js';

/** A reservation that waits for the ledger entry of its request id (a video job's). */
interface Reservation {
  readonly nanoUsd: bigint;
  readonly expiresAt: number;
}

/**
 * One key's spend as this process knows it: the stored running totals when first seen, plus every
 * entry settled since. Only this file reads or moves it: elsewhere it is the account a call holds
 * its reservation in.
 */
export interface BudgetAccount {
  total: bigint;
  /** The latest UTC month (`YYYY-MM`) and day (`YYYY-MM-DD`) seen, and the spend in each: no other period is ever read. */
  month: string;
  monthSpent: bigint;
  day: string;
  daySpent: bigint;
  /** Every reservation in flight: those held by calls and those waiting for an entry. */
  reserved: bigint;
  readonly reservations: Map<string, Reservation>;
}

/**
 * How long a reservation waiting for an entry may outlive it (a lost entry must not block a key
 * forever). A call's own reservation needs none: it ends when the call does, however the call ends.
 */
const defaultReservationTtlMs = 2 * 60 * 60 * 1000;

/**
 * Budgets held in this process. A key's totals are read once from the running totals the ledger
 * keeps (three indexed rows, never history) and from then on moved by the entries this process
 * records, so a check is map arithmetic and the reserve-then-check step runs with no await in
 * between: concurrent calls cannot both take the last of a budget. Spend recorded by other
 * instances is seen after a restart; the shared implementation sees it at once.
 */
export class InProcessBudgetMeter implements BudgetMeter {
  private readonly states = new Map<string, BudgetAccount | Promise<BudgetAccount>>();

  constructor(
    private readonly readSpend: (keyId: string, at: Date) => Promise<KeySpend>,
    private readonly now: () => number = Date.now,
    private readonly reservationTtlMs = defaultReservationTtlMs,
  ) {}

  reserveForCall(key: ApiKeyRecord, requestId: string, worstNanoUsd: bigint): BudgetHold | Promise<BudgetHold> {
    if (!hasBudget(key)) return noHold;
    const account = this.holdInAccount(key, worstNanoUsd);
    return account instanceof Promise ? account.then((held) => new CallHold(this, held, worstNanoUsd)) : new CallHold(this, account, worstNanoUsd);
  }

  /**
   * Reserves a call's worst case in its key's account and returns the account, which the call ends
   * once with `endHold`: the in-process limits' way, with no hold object. A call's reservation is
   * held by the call, not filed under its request id: a map taking and dropping an entry per call
   * costs the whole process measurably (its tables are promoted and rebuilt under the collector).
   */
  holdInAccount(key: ApiKeyRecord, worstNanoUsd: bigint): BudgetAccount | Promise<BudgetAccount> {
    return this.reserveInAccount(key, worstNanoUsd, undefined);
  }

  /** Ends a reservation made by `holdInAccount`. */
  endHold(account: BudgetAccount, worstNanoUsd: bigint): void {
    account.reserved -= worstNanoUsd;
  }

  reserve(key: ApiKeyRecord, requestId: string, worstNanoUsd: bigint): Promise<void> | undefined {
    if (!hasBudget(key)) return undefined;
    const reserved = this.reserveInAccount(key, worstNanoUsd, requestId);
    return reserved instanceof Promise ? reserved.then(() => undefined) : undefined;
  }

  /**
   * Reserves in the key's account, filed under `requestId` until its entry when one is given: at
   * once when the account is loaded — checked and reserved in one synchronous step, so no other
   * call can come between — else once the running totals are read. A refusal (402) is a rejected
   * promise either way.
   */
  private reserveInAccount(key: ApiKeyRecord, worstNanoUsd: bigint, requestId: string | undefined): BudgetAccount | Promise<BudgetAccount> {
    const known = this.states.get(key.id);
    if (known === undefined || known instanceof Promise) return this.stateOf(key.id).then((state) => this.reserveIn(state, key, worstNanoUsd, requestId));
    try {
      return this.reserveIn(known, key, worstNanoUsd, requestId);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  private reserveIn(state: BudgetAccount, key: ApiKeyRecord, worstNanoUsd: bigint, requestId: string | undefined): BudgetAccount {
    this.check(state, key, worstNanoUsd);
    state.reserved += worstNanoUsd;
    if (requestId !== undefined) state.reservations.set(requestId, { nanoUsd: worstNanoUsd, expiresAt: this.now() + this.reservationTtlMs });
    return state;
  }

  /** Throws the 402 when the worst case does not fit the key's budgets. */
  private check(state: BudgetAccount, key: ApiKeyRecord, worstNanoUsd: bigint): void {
    if (this.fits(key, state, worstNanoUsd)) return;
    const now = this.now();
    // Reservations lost to calls that never settled expire; look for them only when they matter.
    this.dropExpired(state, now);
    this.refuse(key, state, now, worstNanoUsd);
  }

  private fits(key: ApiKeyRecord, state: BudgetAccount, worstNanoUsd: bigint): boolean {
    const committed = state.reserved + worstNanoUsd;
    if (key.budgetNanoUsd !== null && state.total + committed > key.budgetNanoUsd) return false;
    // Most budgeted keys have only an absolute budget: the clock and the calendar are read only when
    // a period has one (reading the clock costs a call as much as the arithmetic).
    if (key.monthlyBudgetNanoUsd === null && key.dailyBudgetNanoUsd === null) return true;
    const { month, day } = spendPeriods(this.now());
    return (
      (key.monthlyBudgetNanoUsd === null || spentIn(state.month, state.monthSpent, month) + committed <= key.monthlyBudgetNanoUsd) &&
      (key.dailyBudgetNanoUsd === null || spentIn(state.day, state.daySpent, day) + committed <= key.dailyBudgetNanoUsd)
    );
  }

  /** Throws the 402 naming the first budget the worst case does not fit, if any. */
  private refuse(key: ApiKeyRecord, state: BudgetAccount, now: number, worstNanoUsd: bigint): void {
    const { month, day } = spendPeriods(now);
    const committed = state.reserved + worstNanoUsd;
    refuseIfOver('absolute', key.budgetNanoUsd, state.total, committed, worstNanoUsd);
    refuseIfOver('monthly', key.monthlyBudgetNanoUsd, spentIn(state.month, state.monthSpent, month), committed, worstNanoUsd);
    refuseIfOver('daily', key.dailyBudgetNanoUsd, spentIn(state.day, state.daySpent, day), committed, worstNanoUsd);
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

  private apply(state: BudgetAccount, entry: LedgerEntry): void {
    this.endReservation(state, entry.requestId);
    const cost = entry.costNanoUsd;
    state.total += cost;
    const { month, day } = spendPeriods(entry.createdAt);
    // An entry of a period already over (a call that ended after midnight) counts towards no current one.
    if (month === state.month) {
      state.monthSpent += cost;
    } else if (month > state.month) {
      state.month = month;
      state.monthSpent = cost;
    }
    if (day === state.day) {
      state.daySpent += cost;
    } else if (day > state.day) {
      state.day = day;
      state.daySpent = cost;
    }
  }

  private endReservation(state: BudgetAccount, requestId: string): void {
    // Only video jobs file reservations by id: most entries have none to look for (hashing the id is the cost).
    if (state.reservations.size === 0) return;
    const reservation = state.reservations.get(requestId);
    if (reservation === undefined) return;
    state.reservations.delete(requestId);
    state.reserved -= reservation.nanoUsd;
  }

  private dropExpired(state: BudgetAccount, now: number): void {
    for (const [requestId, reservation] of state.reservations) {
      if (reservation.expiresAt <= now) this.endReservation(state, requestId);
    }
  }

  /**
   * The key's state, read from the running totals on first use. Only calls admitted before the
   * key had a budget can settle while the read runs (every later call awaits this same read
   * before reserving), and their entries may or may not be stored yet when it runs.
   */
  private async stateOf(keyId: string): Promise<BudgetAccount> {
    const known = this.states.get(keyId);
    if (known !== undefined) return known;
    const at = new Date(this.now());
    const loading = this.readSpend(keyId, at).then(
      (spend) => {
        const { month, day } = spendPeriods(at);
        const state: BudgetAccount = { total: spend.total, month, monthSpent: spend.month, day, daySpent: spend.day, reserved: 0n, reservations: new Map() };
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

/**
 * What was spent in `period` (`YYYY-MM` or `YYYY-MM-DD`), given the latest period the state knows
 * of and its spend: nothing in a period that has just begun. (A clock read before an entry's own
 * start counts the entry's period, erring towards refusing.)
 */
function spentIn(known: string, spent: bigint, period: string): bigint {
  return period <= known ? spent : 0n;
}

/** A call's reservation through the port, ended once when the call ends (its entry's cost, if any, already counted). */
class CallHold implements BudgetHold {
  private ended = false;

  constructor(
    private readonly meter: InProcessBudgetMeter,
    private readonly account: BudgetAccount,
    private readonly nanoUsd: bigint,
  ) {}

  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.meter.endHold(this.account, this.nanoUsd);
  }
}

function refuseIfOver(kind: BudgetKind, limit: bigint | null, spent: bigint, committed: bigint, worst: bigint): void {
  if (limit === null || spent + committed <= limit) return;
  throw budgetRefusal(kind, limit, spent, committed, worst);
}
