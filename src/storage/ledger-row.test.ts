import { describe, expect, it } from 'vitest';
import { ledgerEntry } from './storage-contract-records.test-support.js';
import { ledgerColumns, ledgerEntryFromRow, ledgerRow } from './ledger-row.js';
import { sqliteValueCodec } from './sqlite/sqlite-value-codec.js';

const postgresLike = { writeTimestamp: (value: Date) => value, writeBoolean: (value: boolean) => value, readBoolean: (value: unknown) => value === true };

describe('the one mapping of a ledger entry to a usage_ledger row', () => {
  it('names every column of the table once, in the order rows are written', () => {
    expect(ledgerColumns).toEqual([
      'request_id', 'key_id', 'model', 'provider', 'upstream_model', 'endpoint', 'status', 'input_uncached', 'cache_read', 'cache_write',
      'output', 'reasoning', 'images', 'video_seconds', 'usage_estimated', 'cost_nano_usd', 'created_at', 'duration_ms',
    ]);
  });

  it('reads back the entry it wrote, with money above 2^53 exact, in either dialect', () => {
    const entry = ledgerEntry({ costNanoUsd: 9_007_199_254_740_993n, usageEstimated: true, keyId: null, videoSeconds: 12 });
    for (const codec of [sqliteValueCodec, postgresLike]) {
      const row = ledgerRow(entry, codec);
      // Drivers hand money back as text (it is selected cast to text) and may hand counts back as strings.
      const read = { ...row, cost_nano_usd: row.cost_nano_usd.toString(), status: String(row.status) };
      expect(ledgerEntryFromRow(read, codec)).toEqual(entry);
    }
  });
});
