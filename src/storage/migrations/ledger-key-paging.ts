import type { Kysely, Migration } from 'kysely';

/**
 * One key's recent calls are paged newest first by `(created_at, request_id)`, like all calls:
 * `(key_id, created_at)` found the key's rows in time order but left ties to a sort, and a page
 * after a cursor could not seek on the request id. `(key_id, created_at, request_id)` serves the
 * key's pages, its export and its spend alike, so the two-column index it starts with goes.
 */
export function ledgerKeyPagingMigration(): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.createIndex('usage_ledger_key_created_request').on('usage_ledger').columns(['key_id', 'created_at', 'request_id']).execute();
      await db.schema.dropIndex('usage_ledger_key_created').execute();
    },
  };
}
