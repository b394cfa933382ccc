import type { CatalogModel, CatalogRoute } from '../catalog/model-catalog.js';
import type { EndpointFamily } from '../keys/endpoint-family.js';
import type { CallOutcome } from '../call/call-outcome.js';
import type { ApiKeyRecord } from '../storage/ports.js';
import { estimateUsage } from './estimate-usage.js';
import type { LedgerWriter } from './ledger-writer.js';
import { costNanoUsd } from '../catalog/pricing/cost.js';
import { priceAt } from '../catalog/pricing/price-schedule.js';

export interface MeteringFacts {
  readonly requestId: string;
  readonly key: ApiKeyRecord | undefined;
  readonly model: CatalogModel;
  /** The route that served the call (after any fallback). */
  readonly route: CatalogRoute;
  readonly family: EndpointFamily;
  readonly rawBodyLength: number;
  readonly startedAt: number;
}

/**
 * Writes a call's ledger entry once its answer has been delivered or dropped. Usage the upstream
 * did not report is estimated and marked so, never recorded as zero.
 */
export async function meterCall(ledger: LedgerWriter, outcome: CallOutcome, facts: MeteringFacts): Promise<void> {
  const completion = await outcome.completion;
  const usage = completion.usage ?? estimateUsage(facts.rawBodyLength);
  const target = facts.route.target;
  ledger.record({
    requestId: facts.requestId,
    keyId: facts.key?.id ?? null,
    model: facts.model.id,
    provider: target.providerName,
    upstreamModel: target.model,
    endpoint: facts.family,
    status: completion.completed ? completion.status : 499,
    inputUncached: usage.inputUncached,
    cacheRead: usage.cacheRead,
    cacheWrite: usage.cacheWrite,
    output: usage.output,
    reasoning: usage.reasoning,
    images: 0,
    videoSeconds: 0,
    usageEstimated: usage.estimated === true,
    // Priced at the price in force when the call was made, not when its entry is written.
    costNanoUsd: costNanoUsd(priceAt(facts.model.prices, facts.startedAt), { tokens: usage }),
    createdAt: new Date(facts.startedAt),
    durationMs: Date.now() - facts.startedAt,
  });
}
