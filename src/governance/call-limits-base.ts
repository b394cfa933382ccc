import { hasBudget, type BudgetMeter } from './budgets/budget-meter.js';
import type { FormatName } from '../ir/format-name.js';
import type { ApiKeyRecord } from '../keys/api-key.js';
import type { LedgerEntry } from '../metering/ledger-entry.js';
import type { RateLimitStanding } from './rate-limits/key-rate-limiter.js';
import { rateLimitHeaders } from './rate-limits/rate-limit-headers.js';
import { noJobReservation, type JobReservation } from './key-limits.js';

/**
 * What a call's limits do alike whichever way they are kept: the family's rate-limit headers
 * (docs/api.md, "Rate-limit headers") from the standing the call holds, a video job's reservation
 * (filed by the job's id in the key's budgets, so that the job's entry settles it wherever the job
 * ends), and the settling of the call's own entry.
 */
export abstract class CallLimitsBase {
  constructor(
    protected readonly key: ApiKeyRecord | undefined,
    protected readonly budgets: BudgetMeter,
  ) {}

  /** The key's standing; null or undefined when it has no rpm or tpm, and so no headers. */
  protected abstract get standing(): RateLimitStanding | null | undefined;

  get reserves(): boolean {
    return this.key !== undefined && hasBudget(this.key);
  }

  async reserveForJob(jobId: string, worstNanoUsd: bigint): Promise<JobReservation> {
    const key = this.key;
    if (key === undefined || !hasBudget(key)) return noJobReservation;
    await this.budgets.reserve(key, jobId, worstNanoUsd);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.budgets.release(key.id, jobId);
      },
    };
  }

  /**
   * Counts a finished call's entry in its key's budgets. Every entry of a key is settled, not only
   * those of calls that reserved: a call admitted just before its key was given a budget spends
   * from it too, and the budgets skip cheaply the keys they hold nothing for.
   */
  protected settle(entry: LedgerEntry): void {
    if (this.key !== undefined) this.budgets.settle(entry);
  }

  headers(format: FormatName | undefined): Record<string, string> {
    return this.addHeaders({}, format);
  }

  addHeaders(headers: Record<string, string>, format: FormatName | undefined): Record<string, string> {
    const standing = this.standing;
    return standing === null || standing === undefined ? headers : rateLimitHeaders(standing, format, Date.now(), headers);
  }
}
