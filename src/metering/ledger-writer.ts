import type { Logger } from '../logging/logger.js';
import type { LedgerEntry } from './ledger-entry.js';
import type { UsageLedger } from './usage-ledger.js';

/**
 * Writes ledger entries off the request path: entries are queued and appended in small batches
 * (every `delayMs`, 50 ms by default: what a `kill -9` can lose), and `close()` waits for the
 * entries still being worked out, then writes everything queued, so a shutdown loses nothing. A
 * failed write is retried on the next flush rather than dropped.
 */
export class LedgerWriter {
  private queue: LedgerEntry[] = [];
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  /**
   * How many entries are on their way (a stream's is recorded once its last byte has gone or it
   * was cut): a count, not a set of them, which would take and drop a table entry on every call.
   */
  private pending = 0;
  /** Resolves `close()`'s wait when the last entry on its way arrives. */
  private allArrived: (() => void) | undefined;

  constructor(
    private readonly ledger: UsageLedger,
    private readonly logger: Logger,
    private readonly delayMs = 50,
  ) {}

  private readonly listeners: ((entry: LedgerEntry) => void)[] = [];

  /**
   * Tells `listener` of every entry as it is recorded, for observers (the metrics). Budgets are not
   * among them: a call settles its reservation with its entry itself (`CallLimits.finish`).
   */
  onRecord(listener: (entry: LedgerEntry) => void): void {
    this.listeners.push(listener);
  }

  /** Notes an entry on its way (resolved once recorded), which `close()` waits for; returns it. */
  awaiting<T>(entry: Promise<T>): Promise<T> {
    this.pending += 1;
    entry.then(this.arrived, this.arrived);
    return entry;
  }

  private readonly arrived = (): void => {
    this.pending -= 1;
    if (this.pending === 0) this.allArrived?.();
  };

  record(entry: LedgerEntry): void {
    for (const listener of this.listeners) {
      try {
        listener(entry);
      } catch (error) {
        // An observer's failure must never cost the ledger its entry.
        this.logger.error({ err: error, requestId: entry.requestId }, 'a ledger listener failed');
      }
    }
    this.queue.push(entry);
    if (this.timer === undefined) {
      this.timer = setTimeout(() => void this.flush(), this.delayMs);
      // A pending flush never holds a process open: close() writes what is queued.
      this.timer.unref();
    }
  }

  /** Appends everything queued so far; resolves when it is stored. */
  flush(): Promise<void> {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.flushing = this.flushing.then(() => this.writeQueued());
    return this.flushing;
  }

  /**
   * Waits (at most `settleMs`) for the entries on their way — calls cut by the shutdown record
   * theirs as they unwind — then writes everything queued.
   */
  async close(settleMs = 5_000): Promise<void> {
    if (this.pending > 0) {
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        this.allArrived = resolve;
        timer = setTimeout(resolve, settleMs);
      });
      clearTimeout(timer);
      this.allArrived = undefined;
      if (this.pending > 0) this.logger.warn({ entries: this.pending }, 'ledger entries still unsettled at shutdown');
    }
    await this.flush();
  }

  private async writeQueued(): Promise<void> {
    const batch = this.queue;
    this.queue = [];
    if (batch.length === 0) return;
    try {
      await this.ledger.appendMany(batch);
    } catch (error) {
      // Appends are idempotent on request id, so retrying the whole batch cannot count twice.
      this.queue.unshift(...batch);
      this.logger.error({ err: error, entries: batch.length }, 'ledger write failed; will retry');
      if (this.timer === undefined) {
        this.timer = setTimeout(() => void this.flush(), 1_000);
        this.timer.unref();
      }
    }
  }
}
