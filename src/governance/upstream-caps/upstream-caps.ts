/** One call's place under its upstream's concurrency cap: release it once, when the call has ended. */
export interface UpstreamSlot {
  release(): void;
}

/**
 * How many calls each capped upstream (a provider with `max_concurrency`) has in flight: its own
 * quota of concurrent requests, held by this process or shared by every instance through Redis.
 * Only capped providers reach this port; calls to the others never touch it.
 */
export interface UpstreamCaps {
  /**
   * A slot for one call to `provider`, or undefined when `limit` calls are already in flight.
   * An in-process implementation answers without a promise.
   */
  acquire(provider: string, limit: number): UpstreamSlot | undefined | Promise<UpstreamSlot | undefined>;
  /** The slots this process holds now, by provider (for the metrics gauge; every instance reports its own). */
  held(): ReadonlyMap<string, number>;
}

/** Counts this process's slots per provider, for `held()`; both implementations keep one. */
export class HeldSlots {
  private readonly counts = new Map<string, number>();

  /** Counts a slot of `provider` until its release, which runs `onRelease` after giving the slot back; once only. */
  take(provider: string, onRelease?: () => void): UpstreamSlot {
    this.counts.set(provider, (this.counts.get(provider) ?? 0) + 1);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.counts.set(provider, (this.counts.get(provider) ?? 1) - 1);
        onRelease?.();
      },
    };
  }

  get current(): ReadonlyMap<string, number> {
    return this.counts;
  }
}
