import type { ApiKeyRecord } from '../storage/ports.js';
import type { KeyRateLimiter, RateAdmission, RateLimitStanding } from './key-rate-limiter.js';
import { defaultRateWindowMs, rateRefusals, rateStanding } from './rate-refusals.js';

/** One key's counters; the object lives as long as the process, so admissions can hold it. */
interface KeyWindow {
  /** Start of the current fixed window (epoch ms, a multiple of the window's length). */
  start: number;
  requests: number;
  tokens: number;
  inFlight: number;
}

/**
 * Rate limits held in this process: fixed windows per key (one minute unless configured; aligned to
 * the wall clock, so every instance and every header agrees on when a window resets) and a count of
 * calls in flight. Everything is synchronous map arithmetic: admission costs no I/O, and one object.
 */
export class MemoryKeyRateLimiter implements KeyRateLimiter {
  private readonly windows = new Map<string, KeyWindow>();

  constructor(
    private readonly now: () => number = Date.now,
    /** A whole number of milliseconds, so the window arithmetic per call stays integer. */
    readonly windowMs: number = defaultRateWindowMs,
  ) {}

  /** Admits at once, with no promise to await (the hot path); a refusal is a rejected promise, as the port says. */
  admit(key: ApiKeyRecord): RateAdmission | Promise<RateAdmission> {
    const now = this.now();
    const window = this.windowOf(key.id, now);
    if (key.rpm !== null && window.requests >= key.rpm) {
      return Promise.reject(rateRefusals.requests(key, this.retryAfterSeconds(window, now), this.standing(key, window), this.windowMs));
    }
    if (key.tpm !== null && window.tokens >= key.tpm) {
      return Promise.reject(rateRefusals.tokens(key, this.retryAfterSeconds(window, now), this.standing(key, window), this.windowMs));
    }
    if (key.concurrency !== null && window.inFlight >= key.concurrency) {
      return Promise.reject(rateRefusals.concurrency(key, this.standing(key, window)));
    }
    window.requests += 1;
    window.inFlight += 1;
    return new WindowAdmission(this, key, window);
  }

  /** The key's counters at `now`; a new window resets the counts in place (calls in flight stay counted). */
  windowOf(keyId: string, now: number): KeyWindow {
    const start = now - (now % this.windowMs);
    let window = this.windows.get(keyId);
    if (window === undefined) {
      window = { start, requests: 0, tokens: 0, inFlight: 0 };
      this.windows.set(keyId, window);
    } else if (window.start !== start) {
      window.start = start;
      window.requests = 0;
      window.tokens = 0;
    }
    return window;
  }

  /** Frees a call's slot and charges its tokens to the window current when it ends, which may be a later one. */
  end(keyId: string, window: KeyWindow, tokens: number): void {
    window.inFlight -= 1;
    const now = this.now();
    // A key's counters are one object for the process's life: still in its window, it is the one to charge.
    if (now - window.start < this.windowMs) window.tokens += tokens;
    else this.windowOf(keyId, now).tokens += tokens;
  }

  private retryAfterSeconds(window: KeyWindow, now: number): number {
    return Math.max(1, Math.ceil((window.start + this.windowMs - now) / 1000));
  }

  private standing(key: ApiKeyRecord, window: KeyWindow): RateLimitStanding | null {
    return rateStanding(key, window.start + this.windowMs, window.requests, window.tokens);
  }
}

/**
 * One admitted call. Its standing is read from the key's counters when it is asked for (as the
 * answer's headers are written), not copied when the call is admitted: admission then allocates
 * one small object and works out nothing, about 1 % of a rate-limited key's throughput in the
 * gateway (bench/README.md "Limits and budgets on the hot path").
 */
class WindowAdmission implements RateAdmission, RateLimitStanding {
  private finished = false;

  constructor(
    private readonly limiter: MemoryKeyRateLimiter,
    private readonly key: ApiKeyRecord,
    private readonly window: KeyWindow,
  ) {}

  get standing(): RateLimitStanding | null {
    return this.key.rpm === null && this.key.tpm === null ? null : this;
  }

  get requestLimit(): number | null {
    return this.key.rpm;
  }

  get requestsRemaining(): number {
    const rpm = this.key.rpm;
    return rpm === null ? 0 : Math.max(0, rpm - this.window.requests);
  }

  get tokenLimit(): number | null {
    return this.key.tpm;
  }

  get tokensRemaining(): number {
    const tpm = this.key.tpm;
    return tpm === null ? 0 : Math.max(0, tpm - this.window.tokens);
  }

  /** The end of the key's current window: a window that has moved on since admission says so. */
  get resetAt(): number {
    return this.window.start + this.limiter.windowMs;
  }

  finish(tokens: number): void {
    if (this.finished) return;
    this.finished = true;
    this.limiter.end(this.key.id, this.window, tokens);
  }
}
