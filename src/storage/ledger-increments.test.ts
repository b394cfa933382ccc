import { describe, expect, it } from 'vitest';
import type { LedgerEntry } from '../metering/ledger-entry.js';
import { bucketStart, latencyBucket, ledgerIncrements, rollupSteps, spendPeriods, summedColumns } from './ledger-increments.js';
import { ledgerEntry } from './storage-contract-records.test-support.js';

/** What each entry adds on its own, summed by row: the increments a batch must come to. */
function addedOneByOne(entries: readonly LedgerEntry[]) {
  const rollups = new Map<string, { sums: number[]; costNanoUsd: bigint }>();
  const totals = new Map<string, { sums: number[]; costNanoUsd: bigint }>();
  const spend = new Map<string, bigint>();
  const add = (rows: Map<string, { sums: number[]; costNanoUsd: bigint }>, id: string, entry: LedgerEntry) => {
    const row = rows.get(id) ?? { sums: new Array<number>(summedColumns.length).fill(0), costNanoUsd: 0n };
    const figures = [1, entry.status >= 400 ? 1 : 0, entry.inputUncached, entry.cacheRead, entry.cacheWrite, entry.output, entry.reasoning, entry.images, entry.videoSeconds, entry.durationMs];
    figures.forEach((figure, index) => (row.sums[index]! += figure));
    row.sums[figures.length + latencyBucket(entry.durationMs)]! += 1;
    row.costNanoUsd += entry.costNanoUsd;
    rows.set(id, row);
  };
  for (const entry of entries) {
    for (const step of rollupSteps) {
      const start = bucketStart(step, entry.createdAt).toISOString();
      add(rollups, [step, start, entry.keyId ?? '', entry.model].join(' '), entry);
      add(totals, [step, start].join(' '), entry);
    }
    if (entry.keyId === null) continue;
    const periods = spendPeriods(entry.createdAt);
    for (const period of [periods.all, periods.month, periods.day]) spend.set(`${entry.keyId} ${period}`, (spend.get(`${entry.keyId} ${period}`) ?? 0n) + entry.costNanoUsd);
  }
  return { rollups, totals, spend };
}

describe('ledgerIncrements', () => {
  it('comes to what each entry of the batch adds on its own, across minutes, hours, days and months', () => {
    const times = ['2025-03-31T23:59:59.999Z', '2025-04-01T00:00:00.000Z', '2025-04-01T00:00:59.999Z', '2025-04-01T00:01:00.000Z', '2025-04-01T01:00:00.000Z', '1969-12-31T23:59:30.000Z'];
    const entries: LedgerEntry[] = [];
    for (let index = 0; index < 120; index++) {
      entries.push(
        ledgerEntry({
          requestId: `req_${index}`,
          keyId: [null, 'key_a', 'key_b'][index % 3]!,
          model: index % 4 === 0 ? 'other-model' : 'gpt-4o-mini',
          status: index % 9 === 0 ? 502 : 200,
          output: index,
          images: index % 10 === 0 ? 1 : 0,
          costNanoUsd: BigInt(index) * 9_007_199_254_740_993n,
          createdAt: new Date(times[Math.floor(index / 20)]!),
          durationMs: [0, 50, 51, 120_000, 120_001][index % 5]!,
        }),
      );
    }
    const increments = ledgerIncrements(entries);
    const expected = addedOneByOne(entries);
    const byId = <Row extends { sums: number[]; costNanoUsd: bigint }>(rows: readonly Row[], id: (row: Row) => string) =>
      new Map(rows.map((row) => [id(row), { sums: row.sums, costNanoUsd: row.costNanoUsd }]));
    expect(byId(increments.rollups, (row) => [row.step, row.bucketStart.toISOString(), row.keyScope, row.model].join(' '))).toEqual(expected.rollups);
    expect(byId(increments.totals, (row) => [row.step, row.bucketStart.toISOString()].join(' '))).toEqual(expected.totals);
    expect(new Map(increments.spend.map((row) => [`${row.keyId} ${row.period}`, row.costNanoUsd]))).toEqual(expected.spend);
    expect(increments.rollups).toHaveLength(expected.rollups.size);
  });

  it('places a bucket at the start of its UTC minute, hour and day, before 1970 too', () => {
    const at = new Date('1969-12-31T23:59:30.500Z');
    expect(bucketStart('minute', at).toISOString()).toBe('1969-12-31T23:59:00.000Z');
    expect(bucketStart('hour', at).toISOString()).toBe('1969-12-31T23:00:00.000Z');
    expect(bucketStart('day', at).toISOString()).toBe('1969-12-31T00:00:00.000Z');
  });
});
