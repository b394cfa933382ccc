import type { FailMode } from '../config/config-schema.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { Logger } from '../logging/logger.js';

/**
 * What a shared store does while Redis does not answer, by its fail mode, and the log of each
 * outage: one warning when the first command fails, one line when a command succeeds again — not
 * a line per call, which under load would be thousands a second.
 */
export class RedisOutage {
  private down = false;

  constructor(
    /** What is shared, for the log and the 503: `rate limits` or `budgets`. */
    private readonly what: string,
    readonly mode: FailMode,
    private readonly logger: Logger,
  ) {}

  /** A command answered: an outage, if there was one, is over. */
  answered(): void {
    if (!this.down) return;
    this.down = false;
    this.logger.info(`redis answers again: ${this.what} are shared across instances again`);
  }

  /**
   * A command failed. Returns when the fail mode is `open` (the caller goes on without the shared
   * store); throws 503 `limits_unavailable` when it is `closed`.
   */
  failed(error: unknown): void {
    if (!this.down) {
      this.down = true;
      // A reply error is Redis answering "no" (a script it could not run), not Redis gone: say so.
      const cause = isRefusal(error) ? `redis refused a command (${error.message})` : 'redis does not answer';
      this.logger.warn(
        { err: error, failMode: this.mode },
        this.mode === 'open' ? `${cause}: ${this.what} are not enforced until it does` : `${cause}: calls that need ${this.what} are refused until it does`,
      );
    }
    if (this.mode === 'closed') {
      throw new GatewayError('limits_unavailable', `The gateway cannot check this API key's ${this.what} right now (their store does not answer); try again shortly.`, { retryAfterSeconds: 1 });
    }
  }

  /** For work nobody waits on (charging tokens, settling): logged like any failure, never thrown. */
  failedQuietly(error: unknown): void {
    try {
      this.failed(error);
    } catch {
      // The call this belonged to has ended; there is nobody to refuse.
    }
  }

  get isDown(): boolean {
    return this.down;
  }
}

/** Redis answered with an error (a script it could not run, a key of another type): sending the same again will not help. */
export function isRefusal(error: unknown): error is Error {
  return error instanceof Error && error.name === 'ReplyError';
}
