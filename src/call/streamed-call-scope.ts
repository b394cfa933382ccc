import { AbortScope } from './abort-scope.js';
import type { ClientScope } from './client-scope.js';

/**
 * The abort scope of one upstream call whose answer is streamed, and what the client leaving does
 * to it. Before the stream is committed nothing was delivered, so the call stops at once. After
 * that the client holds part of an answer the upstream bills in full, and a stream states its
 * usage only at its end: the call is read on for at most `waitMs` so that the usage is known, and
 * stopped then. A shutdown stops it at once: before the client left, through the client's scope
 * (aborted with a reason); after, through the gateway's shutdown scope, which the wait listens to
 * (the client's scope, aborted when it left, is no longer tracked by the shutdown).
 */
export class StreamedCallScope {
  /** The scope the upstream call listens to. */
  readonly upstream = new AbortScope();
  private committed = false;
  private left = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly client: ClientScope,
    private readonly waitMs: number,
    /** Whether what the client was sent is still to be billed from what the upstream says next. */
    private readonly worthReadingOn: () => boolean = () => true,
  ) {
    const stopListening = client.onAbort(() => {
      if (!this.committed || client.reason !== undefined) this.upstream.abort(client.reason);
      else this.clientLeft();
    });
    this.upstream.onAbort(stopListening);
  }

  /** The first bytes are going to the client: from now on its leaving starts the wait for usage. */
  commit(): void {
    this.committed = true;
  }

  /** Whether the client has left a committed stream (what is read from then on is not delivered). */
  get clientHasLeft(): boolean {
    return this.left;
  }

  /** The client has gone: the upstream call is stopped in `waitMs` unless reading ends before. */
  clientLeft(): void {
    if (this.left || this.upstream.aborted) return;
    this.left = true;
    if (this.waitMs === 0 || !this.worthReadingOn()) {
      this.upstream.abort();
      return;
    }
    this.timer = setTimeout(() => this.upstream.abort(), this.waitMs);
    const stopListening = this.client.shutdown.onAbort(() => this.upstream.abort());
    this.upstream.onAbort(() => {
      clearTimeout(this.timer);
      stopListening();
    });
  }

  /** Reading is over: the upstream call is stopped if it still runs, and the wait is cleared. */
  stop(): void {
    clearTimeout(this.timer);
    this.upstream.abort(this.client.reason);
  }
}
