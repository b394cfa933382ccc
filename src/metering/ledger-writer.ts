import type { Logger } from '../logging/logger.js';
import type { LedgerEntry, UsageLedger } from '../storage/ports.js';

/**
 * Writes ledger entries off the request path: entries are queued and appended in small batches,
 * and `close()` writes everything still queued, so a shutdown loses nothing. A failed write is
 * retried on the next flush rather than dropped.
 */
export class LedgerWriter {
  private queue: LedgerEntry[] = [];
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly ledger: UsageLedger,
    private readonly logger: Logger,
    private readonly delayMs = 50,
  ) {}

  private readonly listeners: ((entry: LedgerEntry) => void)[] = [];

  /** Tells `listener` of every entry as it is recorded (budgets settle, metrics count). */
  onRecord(listener: (entry: LedgerEntry) => void): void {
    this.listeners.push(listener);
  }

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
    this.timer ??= setTimeout(() => void this.flush(), this.delayMs);
  }

  /** Appends everything queued so far; resolves when it is stored. */
  flush(): Promise<void> {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.flushing = this.flushing.then(() => this.writeQueued());
    return this.flushing;
  }

  async close(): Promise<void> {
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
      this.timer ??= setTimeout(() => void this.flush(), 1_000);
    }
  }
}
