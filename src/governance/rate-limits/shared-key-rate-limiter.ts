import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { RedisOutage } from '../../redis/redis-outage.js';
import type { ApiKeyRecord } from '../../keys/api-key.js';
import type { KeyRateLimiter, RateAdmission } from './key-rate-limiter.js';
import { defaultRateWindowMs, rateRefusals, rateStanding } from './rate-refusals.js';
import { renewLeaseEvery } from '../../redis/lease-renewal.js';
import { admitScript, finishScript } from './rate-admission-scripts.js';

export interface SharedKeyRateLimiterOptions {
  /** Prepended to every key this limiter writes. */
  readonly keyPrefix: string;
  readonly outage: RedisOutage;
  readonly now?: () => number;
  /**
   * How long a concurrency slot stays taken without word from its instance. A running call renews
   * its lease every third of this, so only the slots of an instance that died (or lost Redis for
   * that long) lapse: a crash frees its slots within one lease, never holds them forever.
   */
  readonly leaseMs?: number;
  /** The rate window's length (`limits.window_seconds`); a minute by default. */
  readonly windowMs?: number;
}

const defaultLeaseMs = 60_000;

/**
 * Rate limits shared by every instance through Redis, with the semantics of the in-memory limiter
 * (fixed windows aligned to the wall clock, tokens charged after the call, calls in flight).
 * An admission is one round trip (a Lua script checks and counts atomically, so instances admitting
 * at once never pass a limit together); ending a call is one more, sent without waiting for it.
 * Windows follow this instance's clock, so instances need their clocks kept in step (NTP), as the
 * windows' alignment to the wall clock already assumes.
 */
export class SharedKeyRateLimiter implements KeyRateLimiter {
  private readonly now: () => number;
  private readonly leaseMs: number;
  private readonly windowMs: number;
  /** A window's counters live one window past it: tokens of a call ending late still land, then they go. */
  private readonly counterTtlMs: number;

  constructor(
    private readonly redis: Redis,
    private readonly options: SharedKeyRateLimiterOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.leaseMs = options.leaseMs ?? defaultLeaseMs;
    this.windowMs = options.windowMs ?? defaultRateWindowMs;
    this.counterTtlMs = 2 * this.windowMs;
  }

  async admit(key: ApiKeyRecord): Promise<RateAdmission> {
    const now = this.now();
    const windowStart = now - (now % this.windowMs);
    const callId = randomUUID();
    const inFlightKey = this.inFlightKey(key.id);
    let answer: unknown;
    try {
      answer = await admitScript.run(
        this.redis,
        [this.counterKey(key.id, 'requests', windowStart), this.counterKey(key.id, 'tokens', windowStart), inFlightKey],
        [now, key.rpm ?? -1, key.tpm ?? -1, key.concurrency ?? -1, callId, now + this.leaseMs, this.counterTtlMs],
      );
    } catch (error) {
      // Closed: throws the 503. Open: the call goes on uncounted.
      this.options.outage.failed(error);
      return { standing: null, finish: () => undefined };
    }
    this.options.outage.answered();
    const [verdict, requests, tokens] = answer as [number, number, number];
    const resetAt = windowStart + this.windowMs;
    const standing = rateStanding(key, resetAt, requests, tokens);
    const retryAfter = Math.max(1, Math.ceil((resetAt - now) / 1000));
    if (verdict === 1) throw rateRefusals.requests(key, retryAfter, standing, this.windowMs);
    if (verdict === 2) throw rateRefusals.tokens(key, retryAfter, standing, this.windowMs);
    if (verdict === 3) throw rateRefusals.concurrency(key, standing);
    const renewal = key.concurrency === null ? undefined : renewLeaseEvery(this.redis, inFlightKey, callId, { ms: this.leaseMs, now: this.now, outage: this.options.outage });
    let finished = false;
    return {
      standing,
      finish: (tokensUsed) => {
        if (finished) return;
        finished = true;
        clearInterval(renewal);
        const endedAt = this.now();
        const tokensKey = this.counterKey(key.id, 'tokens', endedAt - (endedAt % this.windowMs));
        // Nobody waits on this: a failure is logged by the outage and the slot lapses with its lease.
        finishScript.run(this.redis, [inFlightKey, tokensKey], [callId, key.tpm === null ? 0 : wholeTokens(tokensUsed), this.counterTtlMs]).then(
          () => this.options.outage.answered(),
          (error: unknown) => this.options.outage.failedQuietly(error),
        );
      },
    };
  }


  /** `{id}` is a Redis Cluster hash tag: one key's counters live on one node, as a script needs. */
  private counterKey(keyId: string, counter: 'requests' | 'tokens', windowStart: number): string {
    return `${this.options.keyPrefix}rate:{${keyId}}:${counter}:${windowStart}`;
  }

  private inFlightKey(keyId: string): string {
    return `${this.options.keyPrefix}rate:{${keyId}}:in-flight`;
  }
}

/** INCRBY takes integers only; a count that is not one must not cost the call its slot's release. */
function wholeTokens(tokens: number): number {
  return Number.isFinite(tokens) && tokens > 0 ? Math.round(tokens) : 0;
}
