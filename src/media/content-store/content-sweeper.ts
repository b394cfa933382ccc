import type { Logger } from '../../logging/logger.js';
import type { ContentEntry, ContentStore } from './content-store.js';

export interface SweeperSettings {
  readonly intervalSeconds: number;
  /** Keep the store under this many bytes; no cap when absent. */
  readonly maxBytes?: number;
}

/** Soonest to expire first (content without an expiry last), then the earliest stored. */
function evictionOrder(left: ContentEntry, right: ContentEntry): number {
  const expiry = (entry: ContentEntry): number => entry.expiresAt?.getTime() ?? Number.POSITIVE_INFINITY;
  return expiry(left) - expiry(right) || left.storedAt.getTime() - right.storedAt.getTime();
}

/**
 * Removes content whose time has passed (finished videos after their `expires_at`, images after
 * their URLs expire) and then, when a size cap is set, the content closest to expiring until the
 * store is under it. Every instance may run one over a shared store: what another removed first
 * is simply gone, and one failed removal does not stop the sweep.
 */
export class ContentSweeper {
  private timer: NodeJS.Timeout | undefined;
  private sweeping: Promise<string[]> | undefined;

  constructor(
    private readonly store: ContentStore,
    private readonly settings: SweeperSettings,
    private readonly logger: Logger,
    private readonly now: () => Date = () => new Date(),
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.sweepOnce(this.now()).catch(() => undefined), this.settings.intervalSeconds * 1000);
    this.timer.unref();
  }

  stop(): Promise<unknown> {
    clearInterval(this.timer);
    return this.sweeping ?? Promise.resolve();
  }

  /** One sweep (joining one already running); resolves to the keys removed. */
  sweepOnce(now: Date): Promise<string[]> {
    this.sweeping ??= this.sweep(now).finally(() => {
      this.sweeping = undefined;
    });
    return this.sweeping;
  }

  private async sweep(now: Date): Promise<string[]> {
    const removed: string[] = [];
    const kept: ContentEntry[] = [];
    let total = 0;
    for await (const entry of this.store.list()) {
      if (entry.expiresAt !== undefined && entry.expiresAt.getTime() <= now.getTime()) {
        if (await this.remove(entry.key)) removed.push(entry.key);
        continue;
      }
      kept.push(entry);
      total += entry.size;
    }
    const cap = this.settings.maxBytes;
    if (cap !== undefined && total > cap) {
      for (const entry of kept.sort(evictionOrder)) {
        if (total <= cap) break;
        if (await this.remove(entry.key)) removed.push(entry.key);
        total -= entry.size;
      }
    }
    if (removed.length > 0) this.logger.info({ removed: removed.length }, 'content sweeper removed content');
    return removed;
  }

  private async remove(key: string): Promise<boolean> {
    try {
      await this.store.delete(key);
      return true;
    } catch (error) {
      this.logger.warn({ key, err: error }, 'content sweeper could not remove content');
      return false;
    }
  }
}
