import type { BudgetMeter } from '../../governance/budgets/budget-meter.js';
import type { LedgerEntry } from '../../metering/ledger-entry.js';
import type { VideoJobStore } from './video-job-store.js';

/** What a video job's ledger entry settles once the job's end is stored with it. */
export interface VideoJobSettlement {
  /**
   * The key's budgets: the entry ends the reservation the submit filed under the job's id (made by
   * this instance or, through Redis, another) and its cost counts from then on.
   */
  readonly budgets: Pick<BudgetMeter, 'settle'>;
  /** The metrics count the ended job as they count a call. */
  readonly metrics: { observeLedgerEntry(entry: LedgerEntry): void };
}

/**
 * The job store as the gateway uses it. A job's reservation outlives the call that submitted it,
 * so no call can settle it: the job's end does, whoever stores it (the worker of any instance, a
 * submit the upstream refused, a delete), and only the one that actually ended the job.
 */
export function settlingVideoJobStore(store: VideoJobStore, settlement: VideoJobSettlement): VideoJobStore {
  return {
    insert: (job) => store.insert(job),
    get: (id) => store.get(id),
    list: (query) => store.list(query),
    claimDue: (owner, now, leaseUntil, limit) => store.claimDue(owner, now, leaseUntil, limit),
    updateLeased: (id, owner, patch) => store.updateLeased(id, owner, patch),
    finish: async (id, ending, owner) => {
      const ended = await store.finish(id, ending, owner);
      if (ended && ending.ledgerEntry !== undefined) {
        settlement.budgets.settle(ending.ledgerEntry);
        settlement.metrics.observeLedgerEntry(ending.ledgerEntry);
      }
      return ended;
    },
    markDeleted: (id, at) => store.markDeleted(id, at),
    listAll: (query) => store.listAll(query),
    countByStatus: () => store.countByStatus(),
  };
}
