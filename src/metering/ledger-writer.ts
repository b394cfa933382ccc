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

  private writing: readonly LedgerEntry[] = [];
  /** Counts completed writes, so a reader can tell whether the ledger moved since it last looked. */
  private written = 0;

  /** Cost of a key's entries queued or being written, so budget checks see them at once. */
  pendingNanoUsd(keyId: string): bigint {
    let total = 0n;
    for (const entry of this.queue) if (entry.keyId === keyId) total += entry.costNanoUsd;
    for (const entry of this.writing) if (entry.keyId === keyId) total += entry.costNanoUsd;
    return total;
  }

  /** Changes each time a batch has been stored. */
  get generation(): number {
    return this.written;
  }

  private readonly listeners: ((entry: LedgerEntry) => void)[] = [];

  /** Tells `listener` of every entry as it is recorded (metrics count calls from their entries). */
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
    this.writing = batch;
    try {
      await this.ledger.appendMany(batch);
      this.written += 1;
    } catch (error) {
      // Appends are idempotent on request id, so retrying the whole batch cannot count twice.
      this.queue.unshift(...batch);
      this.logger.error({ err: error, entries: batch.length }, 'ledger write failed; will retry');
      this.timer ??= setTimeout(() => void this.flush(), 1_000);
    } finally {
      this.writing = [];
    }
  }
}
