/**
 * What AbortController and AbortSignal do for a call, at a fraction of their cost: Node builds a
 * full EventTarget for each signal, and a relayed call needs two of them (the client's and the
 * attempt's), which showed up as several percent of the gateway's CPU under load.
 */
export class AbortScope {
  private isAborted = false;
  private abortReason: Error | undefined;
  private listeners: (() => void)[] = [];

  get aborted(): boolean {
    return this.isAborted;
  }

  /**
   * Why the call was stopped, when whoever stopped it said so (a gateway shutting down); undefined
   * when the client went away. What a stream reports in-band then is this, not a transport error.
   */
  get reason(): Error | undefined {
    return this.abortReason;
  }

  /** Aborts once; later calls do nothing. */
  abort(reason?: Error): void {
    if (this.isAborted) return;
    this.isAborted = true;
    this.abortReason = reason;
    const listeners = this.listeners;
    this.listeners = [];
    for (const listener of listeners) listener();
  }

  /** Runs `listener` on abort (at once if already aborted); returns a function that unregisters it. */
  onAbort(listener: () => void): () => void {
    if (this.isAborted) {
      listener();
      return () => {};
    }
    this.listeners.push(listener);
    return () => {
      const index = this.listeners.indexOf(listener);
      if (index !== -1) this.listeners.splice(index, 1);
    };
  }

  /** A scope aborted with this one, which can also be aborted on its own (one upstream attempt). */
  child(): AbortScope {
    const child = new AbortScope();
    child.onAbort(this.onAbort(() => child.abort(this.abortReason)));
    return child;
  }
}
