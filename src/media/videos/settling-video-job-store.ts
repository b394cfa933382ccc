import type { VideoJobStore } from './video-job-store.js';
import type { LedgerEntry } from '../../metering/ledger-entry.js';

/**
 * The job store as the gateway uses it: a job's ending, whoever ends it (the worker, a submit the
 * upstream refused, a delete), hands its ledger entry to `onCharge` once it is stored, as the
 * ledger writer does for calls — so budgets settle and metrics count video jobs too.
 */
export function chargingVideoJobStore(store: VideoJobStore, onCharge: (entry: LedgerEntry) => void): VideoJobStore {
  return {
    insert: (job) => store.insert(job),
    get: (id) => store.get(id),
    list: (query) => store.list(query),
    claimDue: (owner, now, leaseUntil, limit) => store.claimDue(owner, now, leaseUntil, limit),
    updateLeased: (id, owner, patch) => store.updateLeased(id, owner, patch),
    finish: async (id, ending, owner) => {
      const ended = await store.finish(id, ending, owner);
      if (ended && ending.ledgerEntry !== undefined) onCharge(ending.ledgerEntry);
      return ended;
    },
    markDeleted: (id, at) => store.markDeleted(id, at),
    listAll: (query) => store.listAll(query),
    countByStatus: () => store.countByStatus(),
  };
}
