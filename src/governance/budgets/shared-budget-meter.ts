import type { Redis } from 'ioredis';
import { isRefusal, type RedisOutage } from '../../redis/redis-outage.js';
import { spendPeriods } from '../../storage/ledger-increments.js';
import type { ApiKeyRecord } from '../../keys/api-key.js';
import type { LedgerEntry } from '../../metering/ledger-entry.js';
import type { KeySpend } from '../../metering/usage-ledger.js';
import { hasBudget, noHold, type BudgetHold, type BudgetMeter } from './budget-meter.js';
import { budgetRefusal, type BudgetKind } from './budget-refusal.js';
import { releaseScript, reserveScript, seedScript, settleScript } from './budget-scripts.js';

export interface SharedBudgetMeterOptions {
  /** Prepended to every key this meter writes. */
  readonly keyPrefix: string;
  readonly outage: RedisOutage;
  /** The key's running totals as the ledger keeps them (`storage.ledger.spend`). */
  readonly readSpend: (keyId: string, at: Date) => Promise<KeySpend>;
  readonly now?: () => number;
  /** How long a reservation may outlive a call that never settled it (an instance that died mid-call). */
  readonly reservationTtlMs?: number;
}

const defaultReservationTtlMs = 2 * 60 * 60 * 1000;
/** A key's state lives this long after its last reservation or settlement, then is seeded again from the ledger. */
const stateTtlMs = 7 * 24 * 60 * 60 * 1000;
/** A settlement repeated within this time counts once. */
const settledMarkerTtlMs = 6 * 60 * 60 * 1000;
/** Settlements and releases kept while Redis does not answer, sent again once it does; older ones beyond this are dropped. */
const maxUnsent = 10_000;

/** Work that must reach Redis eventually, or budgets there drift from the ledger (or stay reserved for hours). */
type Unsent = { readonly settle: LedgerEntry } | { readonly release: { readonly keyId: string; readonly requestId: string } };

type ReserveAnswer = ['seed'] | ['over', BudgetKind, string, string] | ['ok'];

/**
 * Budgets shared by every instance through Redis, with the semantics of the in-memory meter: a
 * reservation checks every budget against spend plus reservations in flight atomically (one Lua
 * script, one round trip), so instances reserving at once never pass a budget together; a ledger
 * entry settles its reservation and adds its cost in one more, counted once per request id.
 *
 * A key's totals are seeded from the ledger's running totals the first time a check needs them
 * (and again if Redis lost them, e.g. a restart without persistence). Settlements and releases that
 * fail while Redis is down are kept and sent again when it answers, so its totals do not fall behind
 * the ledger and a released reservation does not hold a budget until it lapses.
 */
export class SharedBudgetMeter implements BudgetMeter {
  private readonly now: () => number;
  private readonly reservationTtlMs: number;
  private unsent: Unsent[] = [];
  /** Keys this process has reserved for: only their entries (and video jobs') need settling. */
  private readonly budgetedKeys = new Set<string>();

  constructor(
    private readonly redis: Redis,
    private readonly options: SharedBudgetMeterOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.reservationTtlMs = options.reservationTtlMs ?? defaultReservationTtlMs;
  }

  /** Shared reservations are filed under the request id either way: settling the call's entry ends it in the same script. */
  async reserveForCall(key: ApiKeyRecord, requestId: string, worstNanoUsd: bigint): Promise<BudgetHold> {
    if (!hasBudget(key)) return noHold;
    await this.reserve(key, requestId, worstNanoUsd);
    let ended = false;
    return {
      end: (recorded) => {
        if (!ended && !recorded) this.release(key.id, requestId);
        ended = true;
      },
    };
  }

  async reserve(key: ApiKeyRecord, requestId: string, worstNanoUsd: bigint): Promise<void> {
    if (!hasBudget(key)) return;
    this.budgetedKeys.add(key.id);
    const now = this.now();
    let answer = await this.shared(() => this.runReserve(key, requestId, worstNanoUsd, now));
    if (answer?.[0] === 'seed') {
      await this.seed(key.id, now);
      answer = await this.shared(() => this.runReserve(key, requestId, worstNanoUsd, now));
    }
    // Undefined: Redis failed and the fail mode is open; the call goes on unreserved.
    if (answer === undefined || answer[0] === 'ok') return;
    if (answer[0] === 'seed') throw new Error(`The budget totals of key ${key.id} vanished from Redis as soon as they were written.`);
    const [, kind, spent, reserved] = answer;
    const limit = { absolute: key.budgetNanoUsd, monthly: key.monthlyBudgetNanoUsd, daily: key.dailyBudgetNanoUsd }[kind];
    if (limit === null) throw new Error(`Redis refused key ${key.id} for a ${kind} budget it does not have.`);
    throw budgetRefusal(kind, limit, BigInt(spent), BigInt(reserved) + worstNanoUsd, worstNanoUsd);
  }

  /**
   * A key without a budget costs no round trip: a call is settled by the process that reserved for
   * it, so only keys seen in `reserve` need it — and video jobs, which another instance may end.
   * Totals of a key that gains a budget later are seeded from the ledger when first needed.
   */
  settle(entry: LedgerEntry): void {
    if (entry.keyId === null) return;
    if (!this.budgetedKeys.has(entry.keyId) && entry.endpoint !== 'videos') return;
    this.send({ settle: entry });
  }

  release(keyId: string, requestId: string): void {
    this.send({ release: { keyId, requestId } });
  }

  private runReserve(key: ApiKeyRecord, requestId: string, worst: bigint, now: number): Promise<ReserveAnswer> {
    const { month, day } = spendPeriods(new Date(now));
    const keys = this.keysOf(key.id);
    const limit = (value: bigint | null) => (value === null ? '' : value.toString());
    return reserveScript.run(
      this.redis,
      [keys.spend, keys.reservations, keys.amounts],
      [now, requestId, worst.toString(), now + this.reservationTtlMs, month, day, limit(key.budgetNanoUsd), limit(key.monthlyBudgetNanoUsd), limit(key.dailyBudgetNanoUsd), stateTtlMs],
    ) as Promise<ReserveAnswer>;
  }

  /** Reads the ledger's totals and writes them unless another instance got there first. */
  private async seed(keyId: string, now: number): Promise<void> {
    const at = new Date(now);
    const spend = await this.options.readSpend(keyId, at);
    const { month, day } = spendPeriods(at);
    await this.shared(() =>
      seedScript.run(this.redis, [this.keysOf(keyId).spend], [spend.total.toString(), month, spend.month.toString(), day, spend.day.toString(), stateTtlMs]),
    );
  }

  /** Sent without waiting; kept and sent again once Redis answers when it fails (a repeat is harmless: settling counts once, releasing twice ends nothing more). */
  private send(work: Unsent): void {
    this.run(work).then(
      () => this.answered(),
      (error: unknown) => {
        this.options.outage.failedQuietly(error);
        if (isRefusal(error)) return;
        if (this.unsent.length >= maxUnsent) this.unsent.shift();
        this.unsent.push(work);
      },
    );
  }

  private run(work: Unsent): Promise<unknown> {
    if ('release' in work) {
      const keys = this.keysOf(work.release.keyId);
      return releaseScript.run(this.redis, [keys.spend, keys.reservations, keys.amounts], [work.release.requestId]);
    }
    const entry = work.settle;
    const keys = this.keysOf(entry.keyId as string);
    const { month, day } = spendPeriods(entry.createdAt);
    return settleScript.run(this.redis, [keys.spend, keys.reservations, keys.amounts, `${keys.settledPrefix}${entry.requestId}`], [
      entry.requestId,
      entry.costNanoUsd.toString(),
      month,
      day,
      settledMarkerTtlMs,
      stateTtlMs,
    ]);
  }

  /** Runs a command on the shared store; undefined when it failed and the fail mode is open (closed throws 503). */
  private async shared<T>(command: () => Promise<T>): Promise<T | undefined> {
    let result: T;
    try {
      result = await command();
    } catch (error) {
      this.options.outage.failed(error);
      return undefined;
    }
    this.answered();
    return result;
  }

  private answered(): void {
    this.options.outage.answered();
    if (this.unsent.length === 0) return;
    const retry = this.unsent;
    this.unsent = [];
    for (const work of retry) this.send(work);
  }

  private keysOf(keyId: string) {
    // `{id}` is a Redis Cluster hash tag: one key's budget state lives on one node, as a script needs.
    const base = `${this.options.keyPrefix}budget:{${keyId}}:`;
    return { spend: `${base}spend`, reservations: `${base}reservations`, amounts: `${base}amounts`, settledPrefix: `${base}settled:` };
  }
}
