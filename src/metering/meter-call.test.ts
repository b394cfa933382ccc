import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { CallCompletion, CallOutcome } from '../call/call-outcome.js';
import type { CatalogModel } from '../catalog/model-catalog.js';
import { createLogger } from '../logging/logger.js';
import type { LedgerEntry } from './ledger-entry.js';
import { LedgerWriter } from './ledger-writer.js';
import { meterCall, type MeteringFacts } from './meter-call.js';
import type { UsageLedger } from './usage-ledger.js';

const model: CatalogModel = { id: 'sim-gpt', aliases: [], outputModality: 'text', ownedBy: 'test', created: 0, routes: [], callable: true, prices: undefined };
const facts: MeteringFacts = { requestId: 'req_1', key: undefined, model, route: undefined, family: 'chat', rawBodyLength: 400, startedAt: Date.now() };
const usage = { inputUncached: 12, cacheRead: 0, cacheWrite: 0, output: 7, reasoning: 0 };

function writerTelling(recorded: LedgerEntry[]): LedgerWriter {
  const ledger = { appendMany: async (entries: readonly LedgerEntry[]) => entries.length } as Partial<UsageLedger> as UsageLedger;
  const writer = new LedgerWriter(ledger, createLogger('silent', new Writable({ write: (_chunk, _encoding, callback) => callback() })));
  writer.onRecord((entry) => recorded.push(entry));
  return writer;
}

function outcome(completion: CallCompletion, settled: boolean): CallOutcome {
  return { contentType: 'application/json', body: '{}', completion: Promise.resolve(completion), ...(settled ? { settled: completion } : {}) };
}

describe('meterCall', () => {
  it("records a whole answer's entry at once and hands back the entry itself, not a promise of it", () => {
    const recorded: LedgerEntry[] = [];
    const entry = meterCall(writerTelling(recorded), outcome({ usage, completed: true, status: 200 }, true), facts);
    expect(entry).not.toBeInstanceOf(Promise);
    expect(recorded).toEqual([entry]);
    expect(recorded[0]).toMatchObject({ requestId: 'req_1', status: 200, inputUncached: 12, output: 7, usageEstimated: false });
  });

  it("waits for a stream's completion, and counts the output a cut stream delivered", async () => {
    const recorded: LedgerEntry[] = [];
    const cut: CallCompletion = { usage: undefined, completed: false, status: 200, deliveredOutput: { countTokens: async () => 31 } };
    const entry = meterCall(writerTelling(recorded), outcome(cut, false), facts);
    expect(entry).toBeInstanceOf(Promise);
    expect(recorded).toEqual([]);
    expect(await entry).toMatchObject({ status: 499, output: 31, usageEstimated: true });
    expect(recorded).toHaveLength(1);
  });

  it('waits for the count of delivered output even when the completion is known, and estimates when counting fails', async () => {
    const recorded: LedgerEntry[] = [];
    const uncountable: CallCompletion = { usage: undefined, completed: true, status: 200, deliveredOutput: { countTokens: () => Promise.reject(new Error('no tokenizer')) } };
    const entry = meterCall(writerTelling(recorded), outcome(uncountable, true), facts);
    expect(entry).toBeInstanceOf(Promise);
    expect(await entry).toMatchObject({ status: 200, usageEstimated: true });
    expect(recorded).toHaveLength(1);
  });
});
