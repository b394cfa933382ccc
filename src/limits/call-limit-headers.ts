import type { FormatName } from '../ir/format-name.js';
import type { RateLimitStanding } from './key-rate-limiter.js';
import { rateLimitHeaders } from './rate-limit-headers.js';

/** A call's rate-limit headers (interface.md §8), from the standing its limits keep, whichever way they keep it. */
export abstract class CallLimitHeaders {
  /** The key's standing; null or undefined when it has no rpm or tpm, and so no headers. */
  protected abstract get standing(): RateLimitStanding | null | undefined;

  headers(format: FormatName | undefined): Record<string, string> {
    return this.addHeaders({}, format);
  }

  addHeaders(headers: Record<string, string>, format: FormatName | undefined): Record<string, string> {
    const standing = this.standing;
    return standing === null || standing === undefined ? headers : rateLimitHeaders(standing, format, Date.now(), headers);
  }
}
