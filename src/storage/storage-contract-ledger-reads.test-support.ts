import { describe, expect, it } from 'vitest';
import { latencyPercentileMs } from './latency-percentile.js';
import { bucketStart, latencyBucket, latencyBucketBoundsMs } from './ledger-increments.js';
import type { LedgerEntry } from '../metering/ledger-entry.js';
import type { SeriesStep, UsageGroup, UsageGrouping } from '../metering/usage-ledger.js';
import type { Storage } from './ports.js';
import { at, ledgerEntry } from './storage-contract-records.test-support.js';

/**
 * A spread of calls over three UTC days, three keys (one of them none), two models, statuses and
 * latencies, several sharing one instant: what the reads must sum and page through exactly.
 */
function spreadOfEntries(): LedgerEntry[] {
  const keys = ['key_a', 'key_b', null] as const;
  const models = ['m1', 'm2'] as const;
  const start = at('2025-03-01T22:58:00.000Z').getTime();
  return Array.from({ length: 90 }, (_, index) =>
    ledgerEntry({
      requestId: `req_${String(index).padStart(3, '0')}`,
      keyId: keys[index % 3] ?? null,
      model: models[(index >> 1) % 2] ?? 'm1',
      status: index % 7 === 0 ? 502 : 200,
      inputUncached: index,
      cacheRead: index % 4,
      cacheWrite: index % 5,
      output: 2 * index,
      reasoning: index % 3,
      images: index % 11 === 0 ? 2 : 0,
      videoSeconds: index % 13 === 0 ? 4 : 0,
      usageEstimated: index % 9 === 0,
      // Above 2^53 in sum: a float anywhere would show.
      costNanoUsd: 2n ** 50n + BigInt(index),
      // Groups of three share an instant; the spread crosses two midnights and many minutes.
      createdAt: new Date(start + Math.floor(index / 3) * 97_000_000 / 30),
      durationMs: [30, 80, 200, 700, 1_800, 45_000, 200_000][index % 7] ?? 10,
    }),
  );
}

function groupOf(entry: LedgerEntry, groupBy: UsageGrouping): string {
  if (groupBy === 'key') return entry.keyId ?? '';
  if (groupBy === 'model') return entry.model;
  return entry.createdAt.toISOString().slice(0, 10);
}

/** What the rollups must say, summed from the raw entries. */
function expectedUsage(entries: readonly LedgerEntry[], groupBy: UsageGrouping): UsageGroup[] {
  const groups = new Map<string, UsageGroup>();
  for (const entry of entries) {
    const group = groupOf(entry, groupBy);
    const sum = groups.get(group) ?? { group, requests: 0, errors: 0, inputUncached: 0, cacheRead: 0, cacheWrite: 0, output: 0, reasoning: 0, images: 0, videoSeconds: 0, costNanoUsd: 0n };
    groups.set(group, {
      group,
      requests: sum.requests + 1,
      errors: sum.errors + (entry.status >= 400 ? 1 : 0),
      inputUncached: sum.inputUncached + entry.inputUncached,
      cacheRead: sum.cacheRead + entry.cacheRead,
      cacheWrite: sum.cacheWrite + entry.cacheWrite,
      output: sum.output + entry.output,
      reasoning: sum.reasoning + entry.reasoning,
      images: sum.images + entry.images,
      videoSeconds: sum.videoSeconds + entry.videoSeconds,
      costNanoUsd: sum.costNanoUsd + entry.costNanoUsd,
    });
  }
  return [...groups.values()].sort((left, right) => (left.group < right.group ? -1 : left.group > right.group ? 1 : 0));
}

/** Per bucket of `step`: the calls in it, from the raw entries. */
function bucketsOf(entries: readonly LedgerEntry[], step: SeriesStep): Map<number, LedgerEntry[]> {
  const buckets = new Map<number, LedgerEntry[]>();
  for (const entry of entries) {
    const start = bucketStart(step, entry.createdAt).getTime();
    buckets.set(start, [...(buckets.get(start) ?? []), entry]);
  }
  return new Map([...buckets.entries()].sort(([left], [right]) => left - right));
}

function newestFirst(entries: readonly LedgerEntry[]): LedgerEntry[] {
  return [...entries].sort((left, right) => right.createdAt.getTime() - left.createdAt.getTime() || (left.requestId < right.requestId ? 1 : -1));
}

async function collect(iterable: AsyncIterable<LedgerEntry>): Promise<LedgerEntry[]> {
  const entries: LedgerEntry[] = [];
  for await (const entry of iterable) entries.push(entry);
  return entries;
}

/** The ledger's reads for the admin API: usage and series from the rollups, recent calls and the export from the entries. */
export function describeLedgerReadsContract(storage: () => Storage): void {
  describe('usage ledger reads', () => {
    it('sums usage by key, model and day from the rollups exactly as the raw entries add up', async () => {
      const entries = spreadOfEntries();
      expect(await storage().ledger.appendMany(entries)).toBe(entries.length);
      for (const groupBy of ['key', 'model', 'day'] as const) {
        expect(await storage().ledger.usage({ groupBy })).toEqual(expectedUsage(entries, groupBy));
      }
      const keyA = entries.filter((entry) => entry.keyId === 'key_a');
      expect(await storage().ledger.usage({ groupBy: 'model', keyId: 'key_a' })).toEqual(expectedUsage(keyA, 'model'));
      expect((await storage().ledger.usage({ groupBy: 'key' })).map((group) => group.group)).toEqual(['', 'key_a', 'key_b']);
    });

    it('rounds a usage range out to whole UTC days', async () => {
      const entries = spreadOfEntries();
      await storage().ledger.appendMany(entries);
      const days = [...new Set(entries.map((entry) => entry.createdAt.toISOString().slice(0, 10)))];
      expect(days).toEqual(['2025-03-01', '2025-03-02', '2025-03-03']);
      const middle = entries.filter((entry) => entry.createdAt.toISOString().startsWith('2025-03-02'));
      // Mid-day bounds take in the whole of 2025-03-02 and nothing of the days around it.
      const ranged = await storage().ledger.usage({ groupBy: 'model', since: at('2025-03-02T13:00:00Z'), until: at('2025-03-02T14:00:00Z') });
      expect(ranged).toEqual(expectedUsage(middle, 'model'));
      // An until at midnight stops there.
      const untilMidnight = await storage().ledger.usage({ groupBy: 'day', until: at('2025-03-02T00:00:00Z') });
      expect(untilMidnight.map((group) => group.group)).toEqual(['2025-03-01']);
      expect(await storage().ledger.usage({ groupBy: 'day', since: at('2025-03-04T00:00:00Z') })).toEqual([]);
    });

    it('sums a range shorter than a day from the hourly rollups, rounded out to whole hours', async () => {
      const entries = spreadOfEntries();
      await storage().ledger.appendMany(entries);
      const since = at('2025-03-02T13:20:00Z');
      const until = at('2025-03-02T14:10:00Z');
      const hours = entries.filter((entry) => entry.createdAt >= at('2025-03-02T13:00:00Z') && entry.createdAt < at('2025-03-02T15:00:00Z'));
      expect(hours.length).toBeGreaterThan(0);
      expect(hours.length).toBeLessThan(entries.filter((entry) => entry.createdAt.toISOString().startsWith('2025-03-02')).length);
      for (const groupBy of ['key', 'model', 'day'] as const) {
        expect(await storage().ledger.usage({ groupBy, step: 'hour', since, until })).toEqual(expectedUsage(hours, groupBy));
      }
    });

    it('gives series of requests, errors and cost per minute, hour and day, summed over keys and models', async () => {
      const entries = spreadOfEntries();
      await storage().ledger.appendMany(entries);
      const range = { since: at('2025-03-01T00:00:00Z'), until: at('2025-03-04T00:00:00Z') };
      for (const step of ['minute', 'hour', 'day'] as const) {
        const buckets = bucketsOf(entries, step);
        expect(await storage().ledger.series({ metric: 'requests', step, ...range })).toEqual(
          [...buckets].map(([start, calls]) => ({ at: new Date(start), value: calls.length })),
        );
        expect(await storage().ledger.series({ metric: 'cost', step, ...range })).toEqual(
          [...buckets].map(([start, calls]) => ({ at: new Date(start), value: calls.reduce((sum, call) => sum + call.costNanoUsd, 0n) })),
        );
        expect(await storage().ledger.series({ metric: 'errors', step, ...range })).toEqual(
          [...buckets].map(([start, calls]) => ({ at: new Date(start), value: calls.filter((call) => call.status >= 400).length })),
        );
      }
    });

    it('filters a series by key and model and by its range, the first bucket taken from where since falls', async () => {
      const entries = spreadOfEntries();
      await storage().ledger.appendMany(entries);
      const chosen = entries.filter((entry) => entry.keyId === 'key_b' && entry.model === 'm2');
      const buckets = bucketsOf(chosen, 'hour');
      const series = await storage().ledger.series({ metric: 'requests', step: 'hour', since: at('2025-03-01T00:00:00Z'), until: at('2025-03-05T00:00:00Z'), keyId: 'key_b', model: 'm2' });
      expect(series).toEqual([...buckets].map(([start, calls]) => ({ at: new Date(start), value: calls.length })));

      const [first, second] = [...bucketsOf(entries, 'hour').keys()];
      const within = await storage().ledger.series({ metric: 'requests', step: 'hour', since: new Date((first as number) + 1_800_000), until: new Date(second as number) });
      expect(within.map((point) => point.at.getTime())).toEqual([first]);
    });

    it('gives latency percentiles per bucket from the summed histograms', async () => {
      const entries = spreadOfEntries();
      await storage().ledger.appendMany(entries);
      const range = { since: at('2025-03-01T00:00:00Z'), until: at('2025-03-04T00:00:00Z') };
      for (const [metric, fraction] of [['latency_p50', 0.5], ['latency_p95', 0.95]] as const) {
        const expected = [...bucketsOf(entries, 'day')].map(([start, calls]) => {
          const histogram = new Array<number>(latencyBucketBoundsMs.length + 1).fill(0);
          for (const call of calls) histogram[latencyBucket(call.durationMs)] = (histogram[latencyBucket(call.durationMs)] ?? 0) + 1;
          return { at: new Date(start), value: latencyPercentileMs(histogram, fraction) };
        });
        expect(await storage().ledger.series({ metric, step: 'day', ...range })).toEqual(expected);
      }
      // One 700 ms call alone in its minute: the median is interpolated inside (500, 1000].
      await storage().ledger.append(ledgerEntry({ requestId: 'req_alone', createdAt: at('2025-06-01T10:00:00Z'), durationMs: 700 }));
      expect(await storage().ledger.series({ metric: 'latency_p50', step: 'minute', since: at('2025-06-01T10:00:00Z'), until: at('2025-06-01T10:01:00Z') })).toEqual([
        { at: at('2025-06-01T10:00:00Z'), value: 750 },
      ]);
    });

    it('pages recent calls newest first on (created_at, request_id), ties and key filter included', async () => {
      const entries = spreadOfEntries();
      await storage().ledger.appendMany(entries);
      const paged: LedgerEntry[] = [];
      let page = await storage().ledger.recent({ limit: 4 });
      while (page.length > 0) {
        paged.push(...page);
        const last = page.at(-1) as LedgerEntry;
        page = await storage().ledger.recent({ limit: 4, before: { createdAt: last.createdAt, requestId: last.requestId } });
      }
      expect(paged).toEqual(newestFirst(entries));
      const keyB = await storage().ledger.recent({ limit: 1_000, keyId: 'key_b' });
      expect(keyB).toEqual(newestFirst(entries.filter((entry) => entry.keyId === 'key_b')));
      // A cursor in the middle of three calls sharing an instant continues with the rest of them.
      const tied = newestFirst(entries).slice(3, 6);
      expect(new Set(tied.map((entry) => entry.createdAt.getTime())).size).toBe(1);
      const after = await storage().ledger.recent({ limit: 2, before: { createdAt: tied[0]!.createdAt, requestId: tied[0]!.requestId } });
      expect(after).toEqual(tied.slice(1));
    });

    it('streams every matching entry oldest first across pages, filtered by since, until, key and model', async () => {
      // 2,500 entries, 1,000 of them at one instant: the pages must split ties without losing or repeating any.
      const instant = at('2025-04-01T12:00:00.000Z');
      const many = Array.from({ length: 2_500 }, (_, index) =>
        ledgerEntry({
          requestId: `req_${String(index).padStart(5, '0')}`,
          keyId: index % 2 === 0 ? 'key_even' : 'key_odd',
          model: index % 5 === 0 ? 'm5' : 'm1',
          createdAt: index < 1_000 ? instant : new Date(instant.getTime() + index * 1_000),
        }),
      );
      await storage().ledger.appendMany(many);
      const oldestFirst = many;
      expect(await collect(storage().ledger.entries({}))).toEqual(oldestFirst);
      const since = new Date(instant.getTime() + 1_200_000);
      const until = new Date(instant.getTime() + 2_000_000);
      expect(await collect(storage().ledger.entries({ since, until, keyId: 'key_even', model: 'm5' }))).toEqual(
        many.filter((entry) => entry.createdAt >= since && entry.createdAt < until && entry.keyId === 'key_even' && entry.model === 'm5'),
      );
      expect(await collect(storage().ledger.entries({ keyId: 'key_unknown' }))).toEqual([]);
    });
  });
}
