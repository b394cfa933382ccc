import { HeldSlots, type UpstreamCaps, type UpstreamSlot } from './upstream-caps.js';

/** Upstream concurrency caps held in this process: a counter per capped provider, no I/O. */
export class InProcessUpstreamCaps implements UpstreamCaps {
  private readonly slots = new HeldSlots();

  acquire(provider: string, limit: number): UpstreamSlot | undefined {
    if ((this.slots.current.get(provider) ?? 0) >= limit) return undefined;
    return this.slots.take(provider);
  }

  held(): ReadonlyMap<string, number> {
    return this.slots.current;
  }
}
