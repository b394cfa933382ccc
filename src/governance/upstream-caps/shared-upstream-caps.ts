import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { renewLeaseEvery } from '../../redis/lease-renewal.js';
import type { RedisOutage } from '../../redis/redis-outage.js';
import { takeSlotScript } from './upstream-cap-scripts.js';
import { HeldSlots, type UpstreamCaps, type UpstreamSlot } from './upstream-caps.js';

export interface SharedUpstreamCapsOptions {
  /** Prepended to every key this store writes. */
  readonly keyPrefix: string;
  /** The rate limits' fail mode applies: a cap is a limit on calls like theirs. */
  readonly outage: RedisOutage;
  readonly now?: () => number;
  /** How long a slot stays taken without word from its instance; a running call renews it every third of this. */
  readonly leaseMs?: number;
}

const defaultLeaseMs = 60_000;

/**
 * Upstream concurrency caps shared by every instance: per provider a sorted set of the calls in
 * flight, scored by when their lease ends, as the keys' concurrency limit keeps them. Taking a slot
 * is one round trip; releasing one more, sent without waiting. A slot of an instance that died
 * lapses with its lease, so a crash never holds an upstream's quota for good.
 */
export class SharedUpstreamCaps implements UpstreamCaps {
  private readonly slots = new HeldSlots();
  private readonly now: () => number;
  private readonly leaseMs: number;

  constructor(
    private readonly redis: Redis,
    private readonly options: SharedUpstreamCapsOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.leaseMs = options.leaseMs ?? defaultLeaseMs;
  }

  async acquire(provider: string, limit: number): Promise<UpstreamSlot | undefined> {
    const callId = randomUUID();
    const inFlightKey = `${this.options.keyPrefix}upstream:{${provider}}:in-flight`;
    const now = this.now();
    let taken: unknown;
    try {
      taken = await takeSlotScript.run(this.redis, [inFlightKey], [now, limit, callId, now + this.leaseMs]);
    } catch (error) {
      // Closed: throws the 503. Open: the call goes on, uncounted.
      this.options.outage.failed(error);
      return this.slots.take(provider);
    }
    this.options.outage.answered();
    if (taken !== 1) return undefined;
    return this.sharedSlot(provider, { inFlightKey, callId, renewal: renewLeaseEvery(this.redis, inFlightKey, callId, { ms: this.leaseMs, now: this.now, outage: this.options.outage }) });
  }

  held(): ReadonlyMap<string, number> {
    return this.slots.current;
  }

  /** A slot counted here and leased in Redis: its release stops the renewal and frees the lease. */
  private sharedSlot(provider: string, shared: { inFlightKey: string; callId: string; renewal: NodeJS.Timeout }): UpstreamSlot {
    return this.slots.take(provider, () => {
      clearInterval(shared.renewal);
      // Nobody waits on this: a failure is logged by the outage and the slot lapses with its lease.
      this.redis.zrem(shared.inFlightKey, shared.callId).then(
        () => this.options.outage.answered(),
        (error: unknown) => this.options.outage.failedQuietly(error),
      );
    });
  }
}
