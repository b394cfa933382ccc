import type { AbortScope } from '../call/abort-scope.js';

/**
 * The calls this process is answering, so a shutdown can wait for them and, once its grace is
 * over, stop those still running with a reason their streams report in the client's own format.
 * One set insert and delete per call: no timer, no event listener of its own.
 */
export class CallDrain {
  private readonly calls = new Set<AbortScope>();
  private drainingSince: number | undefined;

  /** True from the moment a shutdown begins: answers from then on close their connection. */
  get draining(): boolean {
    return this.drainingSince !== undefined;
  }

  get inFlight(): number {
    return this.calls.size;
  }

  begin(): void {
    this.drainingSince ??= Date.now();
  }

  track(call: AbortScope): void {
    this.calls.add(call);
  }

  untrack(call: AbortScope): void {
    this.calls.delete(call);
  }

  /** Stops every call still running with `reason`; returns how many there were. */
  stopAll(reason: Error): number {
    const calls = [...this.calls];
    this.calls.clear();
    for (const call of calls) call.abort(reason);
    return calls.length;
  }
}
