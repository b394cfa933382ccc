import { hasBudget, type BudgetMeter } from './budgets/budget-meter.js';
import type { FormatName } from '../ir/format-name.js';
import type { ApiKeyRecord } from '../storage/ports.js';
import type { RateLimitStanding } from './rate-limits/key-rate-limiter.js';
import { rateLimitHeaders } from './rate-limits/rate-limit-headers.js';

/**
 * What a call's limits do alike whichever way they are kept: the family's rate-limit headers
 * (docs/api.md, "Rate-limit headers") from the standing the call holds, and a reservation that
 * outlives the call (a video job's, filed by request id in the key's budgets until its entry
 * settles it), given back when the call ends with no entry.
 */
export abstract class CallLimitsBase {
  /** The request id of a reservation that outlives the call, released if the call fails. */
  private reservedUntilEntry: string | undefined;

  constructor(
    protected readonly key: ApiKeyRecord | undefined,
    protected readonly budgets: BudgetMeter,
  ) {}

  /** The key's standing; null or undefined when it has no rpm or tpm, and so no headers. */
  protected abstract get standing(): RateLimitStanding | null | undefined;

  get reserves(): boolean {
    return this.key !== undefined && hasBudget(this.key);
  }

  reserveUntilEntry(requestId: string, worstNanoUsd: bigint): Promise<void> | undefined {
    if (this.key === undefined || !hasBudget(this.key)) return undefined;
    // Noted first: releasing a reservation that was refused is a no-op.
    this.reservedUntilEntry = requestId;
    return this.budgets.reserve(this.key, requestId, worstNanoUsd);
  }

  /** Part of every `finish`: gives back the reservation until entry when no entry was recorded. */
  protected endReservationUntilEntry(recorded: boolean): void {
    if (!recorded && this.reservedUntilEntry !== undefined && this.key !== undefined) this.budgets.release(this.key.id, this.reservedUntilEntry);
    this.reservedUntilEntry = undefined;
  }

  headers(format: FormatName | undefined): Record<string, string> {
    return this.addHeaders({}, format);
  }

  addHeaders(headers: Record<string, string>, format: FormatName | undefined): Record<string, string> {
    const standing = this.standing;
    return standing === null || standing === undefined ? headers : rateLimitHeaders(standing, format, Date.now(), headers);
  }
}
