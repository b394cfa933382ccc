import { once } from 'node:events';
import type { Writable } from 'node:stream';
import type { GatewayConfig } from '../config/config-schema.js';
import { ledgerExportChunks, ledgerExportFormats, type LedgerExportFormat } from '../metering/ledger-entry-record.js';
import { queryTime } from '../endpoints/admin/admin-query.js';
import { openStorage } from '../storage/open-storage.js';
import { UsageError } from './main.js';

export interface LedgerExportOptions {
  readonly since?: string | undefined;
  readonly until?: string | undefined;
  readonly key?: string | undefined;
  readonly model?: string | undefined;
  readonly format?: string | undefined;
}

function timeOption(name: string, text: string | undefined): Date | undefined {
  if (text === undefined) return undefined;
  const parsed = queryTime.safeParse(text);
  if (!parsed.success) throw new UsageError(`--${name}: expected YYYY-MM-DD or a time like 2026-01-31T12:00:00Z, got '${text}'`);
  return parsed.data;
}

/**
 * `switchyard ledger export`: every matching ledger entry, oldest first, as JSON lines (the
 * default) or CSV, in the shape `GET /admin/ledger` gives, written as it is read so any number of
 * entries passes through in constant memory.
 */
export async function runLedgerCommand(config: GatewayConfig, args: readonly string[], options: LedgerExportOptions, output: Writable = process.stdout): Promise<number> {
  if (args[0] !== 'export' || args.length > 1) throw new UsageError(`usage: switchyard ledger export [--since DATE] [--until DATE] [--key ID] [--model M] [--format csv|jsonl]`);
  const format = options.format ?? 'jsonl';
  if (!(ledgerExportFormats as readonly string[]).includes(format)) throw new UsageError(`--format: expected csv or jsonl, got '${format}'`);
  const since = timeOption('since', options.since);
  const until = timeOption('until', options.until);
  if (since !== undefined && until !== undefined && since.getTime() >= until.getTime()) throw new UsageError('--since must be before --until');
  const storage = await openStorage(config.database.url);
  try {
    await storage.migrate();
    const entries = storage.ledger.entries({
      ...(since === undefined ? {} : { since }),
      ...(until === undefined ? {} : { until }),
      ...(options.key === undefined ? {} : { keyId: options.key }),
      ...(options.model === undefined ? {} : { model: options.model }),
    });
    for await (const chunk of ledgerExportChunks(entries, format as LedgerExportFormat)) {
      // Wait for a slow reader (a pipe into a slow consumer) instead of buffering the ledger.
      if (!output.write(chunk)) await once(output, 'drain');
    }
    return 0;
  } finally {
    await storage.close();
  }
}
