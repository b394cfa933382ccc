import { getJson, query } from '../api.js';
import type { LedgerRecord, List } from '../types.js';

/**
 * The ledger's cost of one call or video job, read from `/admin/requests`: a stream's cost is known
 * only after its last byte and a job's when it ends, so they carry no cost header. The entry is
 * written a moment after the answer, so it is looked for a few times.
 */
export async function ledgerCost(requestId: string, attempts = 20): Promise<string | undefined> {
  for (let attempt = 0; attempt < attempts; attempt++) {
    const recent = await getJson<List<LedgerRecord>>(`/admin/requests${query({ limit: 100 })}`);
    const entry = recent.data.find((record) => record.request_id === requestId);
    if (entry !== undefined) return entry.cost_usd;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return undefined;
}
