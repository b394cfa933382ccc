import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../logging/logger.js';
import type { LedgerEntry } from './ledger-entry.js';
import type { UsageLedger } from './usage-ledger.js';
import { ledgerEntry } from '../storage/storage-contract-records.test-support.js';
import { LedgerWriter } from './ledger-writer.js';

/** A ledger that keeps appended batches; only `appendMany` is used by the writer. */
function memoryLedger(): { ledger: UsageLedger; stored: LedgerEntry[] } {
  const stored: LedgerEntry[] = [];
  const ledger = {
    appendMany: async (entries: readonly LedgerEntry[]) => {
      stored.push(...entries);
      return entries.length;
    },
  } as Partial<UsageLedger> as UsageLedger;
  return { ledger, stored };
}

function logSink(): { logger: ReturnType<typeof createLogger>; text: () => string } {
  let text = '';
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      text += chunk.toString('utf8');
      callback();
    },
  });
  return { logger: createLogger('info', sink), text: () => text };
}

describe('LedgerWriter listeners', () => {
  it('tells every listener of each entry as it is recorded, before it is written', async () => {
    const { ledger, stored } = memoryLedger();
    const writer = new LedgerWriter(ledger, logSink().logger);
    const first: string[] = [];
    const second: string[] = [];
    writer.onRecord((entry) => first.push(entry.requestId));
    writer.onRecord((entry) => second.push(entry.requestId));
    writer.record(ledgerEntry({ requestId: 'req_1' }));
    writer.record(ledgerEntry({ requestId: 'req_2' }));
    expect(first).toEqual(['req_1', 'req_2']);
    expect(second).toEqual(['req_1', 'req_2']);
    expect(stored).toEqual([]);
    await writer.close();
    expect(stored.map((entry) => entry.requestId)).toEqual(['req_1', 'req_2']);
  });

  it('still writes the entry when a listener throws, and logs the failure', async () => {
    const { ledger, stored } = memoryLedger();
    const log = logSink();
    const writer = new LedgerWriter(ledger, log.logger);
    writer.onRecord(() => {
      throw new Error('observer broke');
    });
    writer.record(ledgerEntry({ requestId: 'req_1' }));
    await writer.close();
    expect(stored.map((entry) => entry.requestId)).toEqual(['req_1']);
    expect(log.text()).toContain('a ledger listener failed');
  });

  it('waits at close for an entry still on its way, then writes it', async () => {
    const { ledger, stored } = memoryLedger();
    const writer = new LedgerWriter(ledger, logSink().logger, 10_000);
    let finish: () => void = () => {};
    // A stream cut at shutdown records its entry only once it has unwound.
    void writer.awaiting(
      new Promise<void>((resolve) => {
        finish = () => {
          writer.record(ledgerEntry({ requestId: 'req_late' }));
          resolve();
        };
      }),
    );
    const closing = writer.close();
    setTimeout(() => finish(), 30);
    await closing;
    expect(stored.map((entry) => entry.requestId)).toEqual(['req_late']);
  });

  it('gives up waiting at close after its settle time, and still writes what is queued', async () => {
    const { ledger, stored } = memoryLedger();
    const { logger, text } = logSink();
    const writer = new LedgerWriter(ledger, logger, 10_000);
    writer.record(ledgerEntry({ requestId: 'req_queued' }));
    void writer.awaiting(new Promise(() => {}));
    await writer.close(20);
    expect(stored.map((entry) => entry.requestId)).toEqual(['req_queued']);
    expect(text()).toContain('unsettled');
  });
});
