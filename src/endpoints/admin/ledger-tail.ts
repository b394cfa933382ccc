import type { Logger } from '../../logging/logger.js';
import type { LedgerEntry } from '../../metering/ledger-entry.js';
import type { UsageLedger } from '../../metering/usage-ledger.js';

export type LedgerTailListener = (entry: LedgerEntry) => void;

export interface LedgerTailOptions {
  readonly intervalMs: number;
  /** How far back each read looks for entries not seen yet. */
  readonly lookbackMs: number;
  readonly logger: Logger;
}

/**
 * New ledger entries as they are written, by any instance sharing the database: while anyone
 * listens, one reader per process reads the entries of the last `lookbackMs` every `intervalMs`
 * (a range on the `(created_at, request_id)` index) and hands on those it has not seen. The window
 * is needed because an entry carries its call's start time but is written when the call ends, in
 * a batch, possibly by another instance; an entry older than the window when written is missed.
 * Nothing runs while nobody listens.
 */
export class LedgerTail {
  private readonly listeners = new Set<LedgerTailListener>();
  /** Request ids already handed on (or there before the first listener), with their times for pruning. */
  private readonly seen = new Map<string, number>();
  private primed: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** Bumped on every stop, so a read in flight from an earlier run neither reports nor reschedules. */
  private run = 0;

  constructor(
    private readonly ledger: UsageLedger,
    private readonly options: LedgerTailOptions,
  ) {}

  /**
   * Resolves, once the entries already written have been noted, to the function that stops
   * listening: every entry written after that reaches `listener`.
   */
  async subscribe(listener: LedgerTailListener): Promise<() => void> {
    this.listeners.add(listener);
    const run = this.run;
    this.primed ??= this.read(run, false).then(() => this.schedule(run));
    await this.primed;
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.stop();
    };
  }

  private stop(): void {
    this.run += 1;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.primed = undefined;
    this.seen.clear();
  }

  private schedule(run: number): void {
    if (run !== this.run || this.listeners.size === 0) return;
    this.timer = setTimeout(() => void this.read(run, true).then(() => this.schedule(run)), this.options.intervalMs);
    // An open stream keeps the server alive on its own; the reader must not hold the process.
    this.timer.unref();
  }

  private async read(run: number, report: boolean): Promise<void> {
    const windowStart = Date.now() - this.options.lookbackMs;
    try {
      for await (const entry of this.ledger.entries({ since: new Date(windowStart) })) {
        if (run !== this.run) return;
        if (this.seen.has(entry.requestId)) continue;
        this.seen.set(entry.requestId, entry.createdAt.getTime());
        if (report) for (const listener of this.listeners) listener(entry);
      }
    } catch (error) {
      this.options.logger.warn({ err: error }, 'reading new ledger entries failed; will retry');
    }
    for (const [requestId, createdAt] of this.seen) {
      if (createdAt < windowStart) this.seen.delete(requestId);
    }
  }
}
