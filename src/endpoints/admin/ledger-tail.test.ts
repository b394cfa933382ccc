import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../logging/logger.js';
import { openStorage } from '../../storage/open-storage.js';
import type { LedgerEntry } from '../../metering/ledger-entry.js';
import type { Storage } from '../../storage/ports.js';
import { ledgerEntry } from '../../storage/storage-contract-records.test-support.js';
import { LedgerTail } from './ledger-tail.js';

const silent = createLogger('silent', new Writable({ write: (_chunk, _encoding, callback) => callback() }));

async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 3_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('ledger tail', () => {
  let storage: Storage;
  let reads = 0;

  beforeEach(async () => {
    storage = await openStorage('sqlite::memory:');
    await storage.migrate();
    reads = 0;
    const entries = storage.ledger.entries.bind(storage.ledger);
    // Counts the reads, to see that nothing is read while nobody listens.
    storage.ledger.entries = (filter) => {
      reads += 1;
      return entries(filter);
    };
  });
  afterEach(async () => {
    await storage.close();
  });

  it('hands every listener the entries written after it subscribed, once, and none from before', async () => {
    const now = Date.now();
    await storage.ledger.append(ledgerEntry({ requestId: 'req_before', createdAt: new Date(now - 1_000) }));
    const tail = new LedgerTail(storage.ledger, { intervalMs: 10, lookbackMs: 60_000, logger: silent });
    const first: LedgerEntry[] = [];
    const second: LedgerEntry[] = [];
    const stopFirst = await tail.subscribe((entry) => first.push(entry));
    const stopSecond = await tail.subscribe((entry) => second.push(entry));
    // Written late: it started 30 s ago (a long call) but is stored only now.
    await storage.ledger.append(ledgerEntry({ requestId: 'req_long_call', createdAt: new Date(now - 30_000) }));
    await storage.ledger.append(ledgerEntry({ requestId: 'req_new', createdAt: new Date(now) }));
    await until(() => first.length === 2 && second.length === 2);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(first.map((entry) => entry.requestId).sort()).toEqual(['req_long_call', 'req_new']);
    expect(second).toEqual(first);
    stopFirst();
    await storage.ledger.append(ledgerEntry({ requestId: 'req_later', createdAt: new Date() }));
    await until(() => second.length === 3);
    expect(first).toHaveLength(2);
    stopSecond();
  });

  it('misses an entry written after it fell out of the window, and reads nothing while nobody listens', async () => {
    const tail = new LedgerTail(storage.ledger, { intervalMs: 10, lookbackMs: 5_000, logger: silent });
    const seen: string[] = [];
    const stop = await tail.subscribe((entry) => seen.push(entry.requestId));
    await storage.ledger.append(ledgerEntry({ requestId: 'req_too_old', createdAt: new Date(Date.now() - 60_000) }));
    await storage.ledger.append(ledgerEntry({ requestId: 'req_recent', createdAt: new Date() }));
    await until(() => seen.length === 1);
    expect(seen).toEqual(['req_recent']);
    stop();
    await new Promise((resolve) => setTimeout(resolve, 30));
    const readsWhenStopped = reads;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(reads).toBe(readsWhenStopped);
  });
});
