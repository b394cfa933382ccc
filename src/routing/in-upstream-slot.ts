import type { CatalogRoute } from '../catalog/model-catalog.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { UpstreamCaps, UpstreamSlot } from '../governance/upstream-caps/upstream-caps.js';

/**
 * Runs one attempt on a route inside a slot of its provider's concurrency cap. An uncapped route
 * runs the attempt as it is, with nothing added. A capped one at its cap throws `upstream_busy`
 * before anything is sent (runWithFallback then moves on to the next route); otherwise the slot is
 * held until the attempt fails, or until `heldUntil(outcome)` settles (a stream's end), or at
 * once when that gives nothing to wait for (a whole answer).
 */
export function inUpstreamSlot<Outcome>(
  caps: UpstreamCaps,
  route: CatalogRoute,
  attempt: () => Promise<Outcome>,
  heldUntil: (outcome: Outcome) => Promise<unknown> | undefined,
): Promise<Outcome> {
  const limit = route.maxConcurrency;
  if (limit === undefined) return attempt();
  return inSlot(caps, route.target.providerName, limit, attempt, heldUntil);
}

async function inSlot<Outcome>(
  caps: UpstreamCaps,
  provider: string,
  limit: number,
  attempt: () => Promise<Outcome>,
  heldUntil: (outcome: Outcome) => Promise<unknown> | undefined,
): Promise<Outcome> {
  const slot: UpstreamSlot | undefined = await caps.acquire(provider, limit);
  if (slot === undefined) {
    // A slot frees when any call to the provider ends, so a second is as good a guess as any.
    throw new GatewayError('upstream_busy', `The upstream '${provider}' already has ${limit} ${limit === 1 ? 'request' : 'requests'} in flight, its limit; try again shortly.`, {
      retryAfterSeconds: 1,
    });
  }
  let outcome: Outcome;
  try {
    outcome = await attempt();
  } catch (error) {
    slot.release();
    throw error;
  }
  const until = heldUntil(outcome);
  if (until === undefined) slot.release();
  else until.then(
    () => slot.release(),
    () => slot.release(),
  );
  return outcome;
}
