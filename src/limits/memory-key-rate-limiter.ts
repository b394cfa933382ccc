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
 * the wall clock, so every instance and every header agrees on when a window resets) and a count of calls
 * in flight. Everything is synchronous map arithmetic: admission costs no I/O and no allocation
 * beyond the admission itself.
 */
export class MemoryKeyRateLimiter implements KeyRateLimiter {
  private readonly windows = new Map<string, KeyWindow>();

  constructor(
    private readonly now: () => number = Date.now,
    /** A whole number of milliseconds, so the window arithmetic per call stays integer. */
    private readonly windowMs: number = defaultRateWindowMs,
  ) {}

  /** Admits at once, with no promise to await (the hot path); a refusal is a rejected promise, as the port says. */
  admit(key: ApiKeyRecord): RateAdmission | Promise<RateAdmission> {
    const now = this.now();
    const window = this.windowOf(key.id, now);
    const resetAt = window.start + this.windowMs;
    const retryAfter = Math.max(1, Math.ceil((resetAt - now) / 1000));
    if (key.rpm !== null && window.requests >= key.rpm) {
      return Promise.reject(rateRefusals.requests(key, retryAfter, this.standing(key, window), this.windowMs));
    }
    if (key.tpm !== null && window.tokens >= key.tpm) {
      return Promise.reject(rateRefusals.tokens(key, retryAfter, this.standing(key, window), this.windowMs));
    }
    if (key.concurrency !== null && window.inFlight >= key.concurrency) {
      return Promise.reject(rateRefusals.concurrency(key, this.standing(key, window)));
    }
    window.requests += 1;
    window.inFlight += 1;
    const admitted = this.standing(key, window);
    let finished = false;
    return {
      standing: admitted,
      finish: (tokens) => {
        if (finished) return;
        finished = true;
        window.inFlight -= 1;
        // Tokens land in the window current when the call ends, which may be a later minute.
        this.windowOf(key.id, this.now()).tokens += tokens;
      },
    };
  }

  /** The key's counters at `now`; a new window resets the counts in place (calls in flight stay counted). */
  private windowOf(keyId: string, now: number): KeyWindow {
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

  private standing(key: ApiKeyRecord, window: KeyWindow): RateLimitStanding | null {
    return rateStanding(key, window.start + this.windowMs, window.requests, window.tokens);
  }
}
