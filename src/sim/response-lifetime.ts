import type { ServerResponse } from 'node:http';

/**
 * Tracks whether the client is still there. When the response closes early (client disconnect or
 * server shutdown) every pending wait is cancelled, so no timer outlives its request.
 */
export class ResponseLifetime {
  private closedEarly = false;
  private readonly cancellers = new Set<() => void>();

  constructor(private readonly response: ServerResponse) {
    response.once('close', () => {
      if (response.writableFinished) return;
      this.closedEarly = true;
      for (const cancel of this.cancellers) cancel();
      this.cancellers.clear();
    });
  }

  get closed(): boolean {
    return this.closedEarly || this.response.destroyed;
  }

  /** Waits `ms`; resolves false at once if the client goes away first. */
  wait(ms: number): Promise<boolean> {
    if (this.closed) return Promise.resolve(false);
    if (ms <= 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const cancel = (): void => {
        clearTimeout(timer);
        resolve(false);
      };
      const timer = setTimeout(() => {
        this.cancellers.delete(cancel);
        resolve(!this.closed);
      }, ms);
      this.cancellers.add(cancel);
    });
  }

  /** Resolves when the socket can take more bytes (true) or the client has gone (false). */
  drained(): Promise<boolean> {
    if (this.closed) return Promise.resolve(false);
    return new Promise((resolve) => {
      const cancel = (): void => resolve(false);
      this.cancellers.add(cancel);
      this.response.once('drain', () => {
        this.cancellers.delete(cancel);
        resolve(!this.closed);
      });
    });
  }
}
