/**
 * What AbortController and AbortSignal do for a call, at a fraction of their cost: Node builds a
 * full EventTarget for each signal, and a relayed call needs two of them (the client's and the
 * attempt's), which showed up as several percent of the gateway's CPU under load.
 */
export class AbortScope {
  private isAborted = false;
  private listeners: (() => void)[] = [];

  get aborted(): boolean {
    return this.isAborted;
  }

  /** Aborts once; later calls do nothing. */
  abort(): void {
    if (this.isAborted) return;
    this.isAborted = true;
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
    child.onAbort(this.onAbort(() => child.abort()));
    return child;
  }
}
