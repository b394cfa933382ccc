import type { Storage } from './ports.js';
import { at, hash, ledgerEntry } from './storage-contract-records.test-support.js';

/** A read the admin API or the request path makes, as the endpoint makes it. */
export interface NamedRead {
  readonly name: string;
  /** Reads of one recent page: answered in index order, never by sorting what matched. */
  readonly paged: boolean;
  readonly read: (storage: Storage) => Promise<unknown>;
}

const cursor = { createdAt: at('2026-03-01T12:00:00.000Z'), requestId: 'req_cursor' };
const since = at('2026-02-01T00:00:00.000Z');
const until = at('2026-03-02T00:00:00.000Z');

async function drain(entries: AsyncIterable<unknown>): Promise<void> {
  for await (const entry of entries) void entry;
}

/**
 * Every storage read behind `/admin/usage`, `/admin/usage/series`, `/admin/requests` (and its
 * stream), `/admin/ledger`, `/admin/keys` and a call's key check and budget: what the query-plan
 * tests explain, so none of them reads the ledger's history row by row.
 */
export const adminReads: readonly NamedRead[] = [
  ...(['key', 'model', 'day'] as const).flatMap((groupBy) => [
    { name: `usage by ${groupBy}`, paged: false, read: (storage: Storage) => storage.ledger.usage({ groupBy, since, until }) },
    { name: `usage by ${groupBy}, one key`, paged: false, read: (storage: Storage) => storage.ledger.usage({ groupBy, since, until, keyId: 'key_1' }) },
    { name: `usage by ${groupBy} per hour`, paged: false, read: (storage: Storage) => storage.ledger.usage({ groupBy, step: 'hour', since, until }) },
  ]),
  ...(['minute', 'hour', 'day'] as const).flatMap((step) =>
    (['requests', 'cost', 'latency_p95'] as const).map((metric) => ({
      name: `series ${metric} by ${step}`,
      paged: false,
      read: (storage: Storage) => storage.ledger.series({ metric, step, since, until }),
    })),
  ),
  { name: 'series by hour, one key and model', paged: false, read: (storage) => storage.ledger.series({ metric: 'requests', step: 'hour', since, until, keyId: 'key_1', model: 'gpt-4o-mini' }) },
  { name: 'recent calls', paged: true, read: (storage) => storage.ledger.recent({ limit: 51 }) },
  { name: 'recent calls after a cursor', paged: true, read: (storage) => storage.ledger.recent({ limit: 51, before: cursor }) },
  { name: 'recent calls of one key', paged: true, read: (storage) => storage.ledger.recent({ limit: 51, keyId: 'key_1' }) },
  { name: 'recent calls of one key after a cursor', paged: true, read: (storage) => storage.ledger.recent({ limit: 51, before: cursor, keyId: 'key_1' }) },
  { name: 'new calls for the stream', paged: true, read: (storage) => drain(storage.ledger.entries({ since })) },
  { name: 'ledger export of one key', paged: true, read: (storage) => drain(storage.ledger.entries({ since, until, keyId: 'key_1' })) },
  { name: 'keys', paged: false, read: (storage) => storage.keys.list() },
  { name: 'a key by hash', paged: false, read: (storage) => storage.keys.findByHash(hash('k')) },
  { name: 'a key by id', paged: false, read: (storage) => storage.keys.findById('key_1') },
  { name: "a key's spend", paged: false, read: (storage) => storage.ledger.spend('key_1', until) },
];

/** A few calls by two keys, so every read has rows to find (a plan may differ on empty tables). */
export async function fillForReads(storage: Storage): Promise<void> {
  await storage.ledger.appendMany(
    Array.from({ length: 40 }, (_, index) =>
      ledgerEntry({
        requestId: `req_${String(index).padStart(3, '0')}`,
        keyId: index % 2 === 0 ? 'key_1' : 'key_2',
        createdAt: new Date(since.getTime() + index * 3_600_000 * 17),
        durationMs: 100 * index,
      }),
    ),
  );
}
