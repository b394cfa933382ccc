import type { ApiKeyRecord } from '../../keys/api-key.js';
import type { RateLimitStanding } from './key-rate-limiter.js';
import { RateLimitedError } from './rate-limited-error.js';

/** The 429s every implementation throws, worded alike whichever store counted. */
export const rateRefusals = {
  requests: (key: ApiKeyRecord, retryAfter: number, standing: RateLimitStanding | null, windowMs: number) =>
    new RateLimitedError(`Rate limit of ${key.rpm} requests per ${windowName(windowMs)} reached for this API key.`, retryAfter, standing),
  tokens: (key: ApiKeyRecord, retryAfter: number, standing: RateLimitStanding | null, windowMs: number) =>
    new RateLimitedError(`Rate limit of ${key.tpm} tokens per ${windowName(windowMs)} reached for this API key.`, retryAfter, standing),
  /** A slot frees when any call ends, so a second is as good a guess as any. */
  concurrency: (key: ApiKeyRecord, standing: RateLimitStanding | null) =>
    new RateLimitedError(`This API key already has ${key.concurrency} ${key.concurrency === 1 ? 'request' : 'requests'} in flight, its limit.`, 1, standing),
};

/**
 * The length of a rate window: a wall-clock minute unless `limits.window_seconds` says otherwise
 * (a few seconds lets a test watch a window roll over); rpm and tpm then count per window.
 */
export const defaultRateWindowMs = 60_000;

function windowName(windowMs: number): string {
  return windowMs === defaultRateWindowMs ? 'minute' : `${windowMs / 1000}-second window`;
}

/** The standing for the rate-limit headers; null when the key has neither rpm nor tpm. */
export function rateStanding(key: ApiKeyRecord, resetAt: number, requests: number, tokens: number): RateLimitStanding | null {
  if (key.rpm === null && key.tpm === null) return null;
  return {
    requestLimit: key.rpm,
    requestsRemaining: remainingUnder(key.rpm, requests),
    tokenLimit: key.tpm,
    tokensRemaining: remainingUnder(key.tpm, tokens),
    resetAt,
  };
}

/** What is left of a limit after `used`, never below zero; zero where there is no limit (its header is not sent). */
export function remainingUnder(limit: number | null, used: number): number {
  return limit === null ? 0 : Math.max(0, limit - used);
}
