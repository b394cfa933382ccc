import { describe, expect, it } from 'vitest';
import type { LedgerEntry } from './ledger-entry.js';
import { ledgerCsvColumns, ledgerEntryRecord, ledgerExportChunks, ledgerExportLine } from './ledger-entry-record.js';

const entry: LedgerEntry = {
  requestId: 'req_1',
  keyId: null,
  model: 'odd,"model"',
  provider: 'sim',
  upstreamModel: 'line\nbreak',
  endpoint: 'chat',
  status: 200,
  inputUncached: 10,
  cacheRead: 3,
  cacheWrite: 2,
  output: 20,
  reasoning: 5,
  images: 0,
  videoSeconds: 0,
  usageEstimated: true,
  costNanoUsd: 2n ** 60n + 1n,
  createdAt: new Date('2025-03-01T12:00:00.000Z'),
  durationMs: 842,
};

async function* entriesOf(count: number): AsyncGenerator<LedgerEntry> {
  for (let index = 0; index < count; index++) yield { ...entry, requestId: `req_${index}`, model: 'm' };
}

describe('ledger entry record', () => {
  it('names every field in snake_case with money as an exact decimal string', () => {
    expect(ledgerEntryRecord(entry)).toEqual({
      request_id: 'req_1', key_id: null, model: 'odd,"model"', provider: 'sim', upstream_model: 'line\nbreak', endpoint: 'chat', status: 200,
      input_uncached: 10, cache_read: 3, cache_write: 2, output: 20, reasoning: 5, images: 0, video_seconds: 0, usage_estimated: true,
      cost_usd: '1152921504.606846977', created_at: '2025-03-01T12:00:00.000Z', duration_ms: 842,
    });
  });

  it('quotes CSV fields holding commas, quotes or line breaks and leaves a missing key empty', () => {
    expect(ledgerExportLine(entry, 'csv')).toBe('req_1,,"odd,""model""",sim,"line\nbreak",chat,200,10,3,2,20,5,0,0,true,1152921504.606846977,2025-03-01T12:00:00.000Z,842\r\n');
    expect(ledgerCsvColumns[0]).toBe('request_id');
    expect(ledgerCsvColumns).toHaveLength(18);
  });

  it('writes one JSON object per line', () => {
    const line = ledgerExportLine(entry, 'jsonl');
    expect(line.endsWith('\n')).toBe(true);
    expect(JSON.parse(line)).toEqual(ledgerEntryRecord(entry));
  });

  it('chunks a long export, with the CSV header once at the start', async () => {
    const chunks: string[] = [];
    for await (const chunk of ledgerExportChunks(entriesOf(450), 'csv')) chunks.push(chunk);
    expect(chunks.length).toBe(3);
    const lines = chunks.join('').split('\r\n');
    expect(lines[0]).toBe(ledgerCsvColumns.join(','));
    expect(lines.filter((line) => line.startsWith('req_'))).toHaveLength(450);
    const empty: string[] = [];
    for await (const chunk of ledgerExportChunks(entriesOf(0), 'jsonl')) empty.push(chunk);
    expect(empty).toEqual([]);
  });
});
