import { GatewayError } from '../../errors/gateway-error.js';
import type { RateLimitStanding } from './key-rate-limiter.js';

/** A 429 that carries the key's standing, so the refusal has the same headers as every other answer. */
export class RateLimitedError extends GatewayError {
  constructor(
    message: string,
    retryAfterSeconds: number,
    readonly standing: RateLimitStanding | null,
  ) {
    super('rate_limited', message, { retryAfterSeconds });
  }
}
