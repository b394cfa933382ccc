import type { ApiKeyRecord } from '../../keys/api-key.js';

/** Where a key stands in its current one-minute window, for the rate-limit headers. */
export interface RateLimitStanding {
  readonly requestLimit: number | null;
  readonly requestsRemaining: number;
  readonly tokenLimit: number | null;
  readonly tokensRemaining: number;
  /** When the current window ends (epoch ms): both counts start again then. */
  readonly resetAt: number;
}

/** One admitted call: hold it until the call has ended, then `finish` it once. */
export interface RateAdmission {
  /** The key's standing as of this call's admission or later (the in-memory limiter reads it when asked); null when the key has no rpm or tpm. */
  readonly standing: RateLimitStanding | null;
  /** Ends the call: frees its concurrency slot and charges the tokens it used to the key's minute. */
  finish(tokens: number): void;
}

/**
 * Per-key requests per minute, tokens per minute and concurrent calls
 * (docs/api.md, "Limits and budgets"). A call is admitted while its key's window has requests left
 * and its tokens are not yet spent (tokens are charged afterwards from reported usage, so
 * admission needs no tokenizer), and while fewer than `concurrency` of its calls are in flight. A
 * refusal throws the 429 `GatewayError` with `retryAfterSeconds` and the standing attached. This
 * is the port: the in-memory implementation holds per process; a shared one (Redis) holds across
 * instances.
 */
export interface KeyRateLimiter {
  /** A refusal is a rejected promise; an in-process implementation may admit without one. */
  admit(key: ApiKeyRecord): RateAdmission | Promise<RateAdmission>;
}

/** Whether a key has any limit this port enforces (keys without one skip it entirely). */
export function hasRateLimits(key: ApiKeyRecord): boolean {
  return key.rpm !== null || key.tpm !== null || key.concurrency !== null;
}
