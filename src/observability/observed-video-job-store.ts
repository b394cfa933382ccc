import type { LedgerEntry, VideoJobStore } from '../storage/ports.js';

/**
 * A video job store that tells `onEnded` about each job's ledger entry once the job has really
 * ended (the one `finish` that returned true): a job's entry is written by the store with its
 * ending, not through the ledger writer, so this is where metrics learn of it.
 */
export function observedVideoJobStore(store: VideoJobStore, onEnded: (entry: LedgerEntry) => void): VideoJobStore {
  return {
    insert: (job) => store.insert(job),
    get: (id) => store.get(id),
    list: (query) => store.list(query),
    claimDue: (owner, now, leaseUntil, limit) => store.claimDue(owner, now, leaseUntil, limit),
    updateLeased: (id, owner, patch) => store.updateLeased(id, owner, patch),
    async finish(id, ending, owner) {
      const ended = await store.finish(id, ending, owner);
      if (ended && ending.ledgerEntry !== undefined) onEnded(ending.ledgerEntry);
      return ended;
    },
    markDeleted: (id, at) => store.markDeleted(id, at),
    listAll: (query) => store.listAll(query),
    countByStatus: () => store.countByStatus(),
  };
}
