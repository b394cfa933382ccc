import type { ApiKeyRecord } from '../../keys/api-key.js';
import type { KeyRateLimiter, RateAdmission, RateLimitStanding } from './key-rate-limiter.js';
import { defaultRateWindowMs, rateRefusals, rateStanding, remainingUnder } from './rate-refusals.js';

/**
 * One key's counters, kept for the process's life, and its standing for the headers: read from the
 * counters when the headers are written, so a call holds no copy of them (the standing is then the
 * key's as of its admission or later, as the port allows).
 */
export class KeyWindow implements RateLimitStanding {
  requests = 0;
  tokens = 0;
  inFlight = 0;

  constructor(
    /** Start of the current fixed window (epoch ms, a multiple of the window's length). */
    public start: number,
    /** The key's record as last admitted: the limits the headers state. */
    public key: ApiKeyRecord,
    private readonly windowMs: number,
  ) {}

  /** Null for a key with neither rpm nor tpm: it has no headers to send. */
  get standing(): RateLimitStanding | null {
    return this.key.rpm === null && this.key.tpm === null ? null : this;
  }

  get requestLimit(): number | null {
    return this.key.rpm;
  }

  get requestsRemaining(): number {
    return remainingUnder(this.key.rpm, this.requests);
  }

  get tokenLimit(): number | null {
    return this.key.tpm;
  }

  get tokensRemaining(): number {
    return remainingUnder(this.key.tpm, this.tokens);
  }

  get resetAt(): number {
    return this.start + this.windowMs;
  }
}

/**
 * Rate limits held in this process: fixed windows per key (one minute unless configured; aligned to
 * the wall clock, so every instance and every header agrees on when a window resets) and a count of
 * calls in flight. Everything is synchronous map arithmetic: admission costs no I/O (and through
 * `admitWindow`, no object).
 */
export class InProcessKeyRateLimiter implements KeyRateLimiter {
  private readonly windows = new Map<string, KeyWindow>();

  constructor(
    private readonly now: () => number = Date.now,
    /** A whole number of milliseconds, so the window arithmetic per call stays integer. */
    readonly windowMs: number = defaultRateWindowMs,
  ) {}

  admit(key: ApiKeyRecord): RateAdmission | Promise<RateAdmission> {
    const window = this.admitWindow(key);
    return window instanceof Promise ? window : new WindowAdmission(this, window);
  }

  /**
   * Counts a call in its key's window and returns the window, which the caller ends once with
   * `end`: the in-process limits' way, with no admission object (a refusal is a rejected promise).
   */
  admitWindow(key: ApiKeyRecord): KeyWindow | Promise<never> {
    const now = this.now();
    const window = this.windowOf(key, now);
    if (key.rpm !== null && window.requests >= key.rpm) {
      return Promise.reject(rateRefusals.requests(key, this.retryAfterSeconds(window, now), this.standing(key, window), this.windowMs));
    }
    if (key.tpm !== null && window.tokens >= key.tpm) {
      return Promise.reject(rateRefusals.tokens(key, this.retryAfterSeconds(window, now), this.standing(key, window), this.windowMs));
    }
    if (key.concurrency !== null && window.inFlight >= key.concurrency) {
      return Promise.reject(rateRefusals.concurrency(key, this.standing(key, window)));
    }
    window.key = key;
    window.requests += 1;
    window.inFlight += 1;
    return window;
  }

  /** Frees a call's slot and charges its tokens to the window current when it ends, which may be a later one. */
  end(window: KeyWindow, tokens: number): void {
    window.inFlight -= 1;
    const now = this.now();
    // A key's counters are one object for the process's life: still in its window, it is the one to charge.
    if (now - window.start < this.windowMs) window.tokens += tokens;
    else this.windowOf(window.key, now).tokens += tokens;
  }

  /** The key's counters at `now`; a new window resets the counts in place (calls in flight stay counted). */
  private windowOf(key: ApiKeyRecord, now: number): KeyWindow {
    const start = now - (now % this.windowMs);
    let window = this.windows.get(key.id);
    if (window === undefined) {
      window = new KeyWindow(start, key, this.windowMs);
      this.windows.set(key.id, window);
    } else if (window.start !== start) {
      window.start = start;
      window.requests = 0;
      window.tokens = 0;
    }
    return window;
  }

  private retryAfterSeconds(window: KeyWindow, now: number): number {
    return Math.max(1, Math.ceil((window.start + this.windowMs - now) / 1000));
  }

  /** A refusal's standing: a copy, as it stood when the call was refused. */
  private standing(key: ApiKeyRecord, window: KeyWindow): RateLimitStanding | null {
    return rateStanding(key, window.start + this.windowMs, window.requests, window.tokens);
  }
}

/** One admitted call through the port: its key's window, ended once. */
class WindowAdmission implements RateAdmission {
  private finished = false;

  constructor(
    private readonly limiter: InProcessKeyRateLimiter,
    private readonly window: KeyWindow,
  ) {}

  get standing(): RateLimitStanding | null {
    return this.window.standing;
  }

  finish(tokens: number): void {
    if (this.finished) return;
    this.finished = true;
    this.limiter.end(this.window, tokens);
  }
}
