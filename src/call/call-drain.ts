import { AbortScope } from './abort-scope.js';

/** A call in flight: a link in the drain's list. */
export interface TrackedCall {
  readonly call: AbortScope;
  previous: TrackedCall | undefined;
  next: TrackedCall | undefined;
  tracked: boolean;
}

/**
 * The calls this process is answering, so a shutdown can wait for them and, once its grace is
 * over, stop those still running with a reason their streams report in the client's own format.
 * A linked list rather than a set: adding and dropping an entry of a long-lived hash table on every
 * call costs the whole process under the collector (bench/README.md, "Limits and budgets on the
 * hot path"); linking costs a small object that dies with its call.
 */
export class CallDrain {
  private newest: TrackedCall | undefined;
  private count = 0;
  private drainingSince: number | undefined;
  /**
   * Aborted when a shutdown begins. A client that left a stream is no longer a call in flight, but
   * its upstream may still be read for the usage: that wait listens here and ends at once.
   */
  readonly shutdown = new AbortScope();

  /** True from the moment a shutdown begins: answers from then on close their connection. */
  get draining(): boolean {
    return this.drainingSince !== undefined;
  }

  get inFlight(): number {
    return this.count;
  }

  begin(): void {
    this.drainingSince ??= Date.now();
    this.shutdown.abort();
  }

  track(call: AbortScope): TrackedCall {
    const tracked: TrackedCall = { call, previous: undefined, next: this.newest, tracked: true };
    if (this.newest !== undefined) this.newest.previous = tracked;
    this.newest = tracked;
    this.count += 1;
    return tracked;
  }

  /** The call ended; once only (a call already stopped by `stopAll` is no longer tracked). */
  untrack(tracked: TrackedCall): void {
    if (!tracked.tracked) return;
    tracked.tracked = false;
    if (tracked.previous === undefined) this.newest = tracked.next;
    else tracked.previous.next = tracked.next;
    if (tracked.next !== undefined) tracked.next.previous = tracked.previous;
    this.count -= 1;
  }

  /** Stops every call still running with `reason`; returns how many there were. */
  stopAll(reason: Error): number {
    const calls: AbortScope[] = [];
    for (let tracked = this.newest; tracked !== undefined; tracked = tracked.next) {
      tracked.tracked = false;
      calls.push(tracked.call);
    }
    this.newest = undefined;
    this.count = 0;
    for (const call of calls) call.abort(reason);
    return calls.length;
  }
}
