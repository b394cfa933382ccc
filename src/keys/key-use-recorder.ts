import type { Logger } from '../logging/logger.js';
import type { ApiKeyStore } from './api-key-store.js';

/**
 * Remembers when each key was last used and writes those times every few seconds, so that
 * `last_used_at` costs a request one map write and never a database round trip. A time may lag by
 * up to one interval; times not yet written when the process stops are written by `close`.
 */
export class KeyUseRecorder {
  private pending = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: Pick<ApiKeyStore, 'markUsed'>,
    private readonly logger: Pick<Logger, 'warn'>,
    private readonly intervalMs = 5_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Called on every authenticated request. */
  record(keyId: string): void {
    this.pending.set(keyId, this.now());
  }

  start(): void {
    if (this.timer !== undefined) return;
    this.timer = setInterval(() => void this.flush(), this.intervalMs);
    // A pending write must not keep a finished process alive; `close` writes what is left.
    this.timer.unref();
  }

  /** Writes the uses recorded so far; resolves once they are stored (or the write failed and was logged). */
  flush(): Promise<void> {
    // Chained, so two flushes never write the same key concurrently and an earlier time never lands last.
    this.writing = this.writing.then(() => this.writePending());
    return this.writing;
  }

  async close(): Promise<void> {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }

  private async writePending(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    try {
      await this.store.markUsed([...batch].map(([id, at]) => ({ id, at: new Date(at) })));
    } catch (error) {
      // Kept for the next flush unless a newer use has replaced it meanwhile.
      for (const [id, at] of batch) if (!this.pending.has(id)) this.pending.set(id, at);
      this.logger.warn({ err: error, keys: batch.size }, 'recording when keys were last used failed; retrying later');
    }
  }
}
