import { describe, expect, it } from 'vitest';
import { ledgerEntry } from './storage-contract-records.test-support.js';
import { ledgerColumns, ledgerEntryFromRow, ledgerRowValues, type LedgerEntryRow } from './ledger-row.js';
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
      const values = ledgerRowValues(entry, codec);
      expect(values).toHaveLength(ledgerColumns.length);
      const row: Record<string, unknown> = Object.fromEntries(ledgerColumns.map((column, index) => [column, values[index]]));
      // Drivers hand money back as text (it is selected cast to text) and may hand counts back as strings.
      const read = { ...row, cost_nano_usd: String(row.cost_nano_usd), status: String(row.status) } as LedgerEntryRow;
      expect(ledgerEntryFromRow(read, codec)).toEqual(entry);
    }
  });
});
