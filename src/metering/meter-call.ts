import type { CatalogModel, CatalogRoute } from '../catalog/model-catalog.js';
import type { EndpointFamily } from '../keys/endpoint-family.js';
import type { CallCompletion, CallOutcome } from '../call/call-outcome.js';
import type { Usage } from '../ir/usage.js';
import type { ApiKeyRecord } from '../keys/api-key.js';
import type { LedgerEntry } from './ledger-entry.js';
import { estimateUsage, usageOfCutStream } from './estimate-usage.js';
import type { LedgerWriter } from './ledger-writer.js';
import { costNanoUsd } from '../catalog/pricing/cost.js';
import { priceAt } from '../catalog/pricing/price-schedule.js';

export interface MeteringFacts {
  readonly requestId: string;
  readonly key: ApiKeyRecord | undefined;
  readonly model: CatalogModel;
  /** The route that served the call (after any fallback); undefined when none did. */
  readonly route: CatalogRoute | undefined;
  readonly family: EndpointFamily;
  readonly rawBodyLength: number;
  readonly startedAt: number;
}

/**
 * Writes a call's ledger entry once its answer has been delivered or dropped. Usage the upstream
 * did not report is estimated and marked so, never recorded as zero; a stream cut before its usage
 * came is charged at least the output counted in what it delivered. A whole answer's completion is
 * known as it is made (`settled`): its entry is written and returned at once, so the call's limits
 * finish and its cost header is set without waiting turns of the event loop; otherwise it resolves
 * to the entry.
 */
export function meterCall(ledger: LedgerWriter, outcome: CallOutcome, facts: MeteringFacts): LedgerEntry | Promise<LedgerEntry> {
  const settled = outcome.settled;
  if (settled !== undefined && settled.deliveredOutput === undefined) return recordCompletion(ledger, facts, settled, undefined);
  return outcome.completion.then((completion) => {
    const deliveredOutput = completion.deliveredOutput;
    if (deliveredOutput === undefined) return recordCompletion(ledger, facts, completion, undefined);
    // Counted here, once the stream is over: loading the tokenizer and counting never hold up its end.
    return deliveredOutput.countTokens().then(
      (tokens) => recordCompletion(ledger, facts, completion, tokens),
      () => recordCompletion(ledger, facts, completion, undefined),
    );
  });
}

function recordCompletion(ledger: LedgerWriter, facts: MeteringFacts, completion: CallCompletion, deliveredOutputTokens: number | undefined): LedgerEntry {
  const usage =
    deliveredOutputTokens === undefined
      ? (completion.usage ?? estimateUsage(facts.rawBodyLength))
      : usageOfCutStream(completion.usage, facts.rawBodyLength, deliveredOutputTokens);
  return record(ledger, facts, completion.completed ? completion.status : 499, usage);
}

/**
 * The entry of a call that passed validation but got no answer from any upstream: nothing was
 * delivered, so nothing is charged, but the call is on the record with the status the client got.
 */
export function meterFailedCall(ledger: LedgerWriter, facts: MeteringFacts, status: number): LedgerEntry {
  return record(ledger, facts, status, { inputUncached: 0, cacheRead: 0, cacheWrite: 0, output: 0, reasoning: 0 });
}

function record(ledger: LedgerWriter, facts: MeteringFacts, status: number, usage: Usage): LedgerEntry {
  const target = facts.route?.target;
  const delivered = status < 400 || status === 499;
  const entry: LedgerEntry = {
    requestId: facts.requestId,
    keyId: facts.key?.id ?? null,
    model: facts.model.id,
    provider: target?.providerName ?? '',
    upstreamModel: target?.model ?? '',
    endpoint: facts.family,
    status,
    inputUncached: usage.inputUncached,
    cacheRead: usage.cacheRead,
    cacheWrite: usage.cacheWrite,
    output: usage.output,
    reasoning: usage.reasoning,
    images: 0,
    videoSeconds: 0,
    usageEstimated: usage.estimated === true,
    // Priced at the price in force when the call was made, not when its entry is written, and at
    // the serving route's own price when it has one (a fallback to the same model on a cloud).
    costNanoUsd: delivered ? costNanoUsd(priceAt(facts.route?.prices ?? facts.model.prices, facts.startedAt), { tokens: usage }) : 0n,
    createdAt: new Date(facts.startedAt),
    durationMs: Date.now() - facts.startedAt,
  };
  ledger.record(entry);
  return entry;
}
