import { formatNanoUsd } from '../catalog/pricing/decimal-usd.js';
import type { LedgerEntry } from './ledger-entry.js';

/**
 * A ledger entry as operators read it (docs/api.md, "Ledger"): snake_case, the usage buckets at the top
 * level, money as a decimal USD string and time as ISO 8601. The one shape of an entry for the
 * admin API (JSON, JSON lines, CSV, the live stream) and `switchyard ledger export`.
 */
export function ledgerEntryRecord(entry: LedgerEntry) {
  return {
    request_id: entry.requestId,
    key_id: entry.keyId,
    model: entry.model,
    provider: entry.provider,
    upstream_model: entry.upstreamModel,
    endpoint: entry.endpoint,
    status: entry.status,
    input_uncached: entry.inputUncached,
    cache_read: entry.cacheRead,
    cache_write: entry.cacheWrite,
    output: entry.output,
    reasoning: entry.reasoning,
    images: entry.images,
    video_seconds: entry.videoSeconds,
    usage_estimated: entry.usageEstimated,
    cost_usd: formatNanoUsd(entry.costNanoUsd),
    created_at: entry.createdAt.toISOString(),
    duration_ms: entry.durationMs,
  };
}

export type LedgerEntryRecord = ReturnType<typeof ledgerEntryRecord>;

export const ledgerExportFormats = ['jsonl', 'csv'] as const;
export type LedgerExportFormat = (typeof ledgerExportFormats)[number];

/** The CSV columns, in the order of `ledgerEntryRecord`. */
export const ledgerCsvColumns = Object.keys(ledgerEntryRecord({
  requestId: '', keyId: null, model: '', provider: '', upstreamModel: '', endpoint: '', status: 0, inputUncached: 0, cacheRead: 0,
  cacheWrite: 0, output: 0, reasoning: 0, images: 0, videoSeconds: 0, usageEstimated: false, costNanoUsd: 0n, createdAt: new Date(0), durationMs: 0,
})) as (keyof LedgerEntryRecord)[];

/** RFC 4180: a field holding a comma, a quote or a line break is quoted, quotes doubled; no key is an empty field. */
function csvField(value: string | number | boolean | null): string {
  if (value === null) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One line of the export, with its line ending. */
export function ledgerExportLine(entry: LedgerEntry, format: LedgerExportFormat): string {
  const record = ledgerEntryRecord(entry);
  if (format === 'jsonl') return `${JSON.stringify(record)}\n`;
  return `${ledgerCsvColumns.map((column) => csvField(record[column])).join(',')}\r\n`;
}

/** Entries per chunk: large enough that a write per chunk costs little, small enough to stay constant in memory. */
const entriesPerChunk = 200;

/**
 * The export as text chunks: for CSV a header row first (RFC 4180 line endings), then the entries
 * as they are read, so any number of them passes through in constant memory.
 */
export async function* ledgerExportChunks(entries: AsyncIterable<LedgerEntry>, format: LedgerExportFormat): AsyncGenerator<string> {
  let chunk = format === 'csv' ? `${ledgerCsvColumns.join(',')}\r\n` : '';
  let count = 0;
  for await (const entry of entries) {
    chunk += ledgerExportLine(entry, format);
    count += 1;
    if (count === entriesPerChunk) {
      yield chunk;
      chunk = '';
      count = 0;
    }
  }
  if (chunk !== '') yield chunk;
}
