import { withOutputCapHint } from '../../governance/budgets/budget-refusal.js';
import { outputBound } from '../../governance/worst-case/output-bound.js';
import { unpricedChargeIn } from '../../governance/budgets/unpriced-charge.js';
import { unpricedModelRefusal } from '../../governance/budgets/unpriced-model-refusal.js';
import { uncappedOutputTokens, worstTextCostNanoUsd } from '../../governance/worst-case/text-worst-case.js';
import type { CatalogModel } from '../../catalog/model-catalog.js';
import { isPriced } from '../../catalog/pricing/is-priced.js';
import { priceAt } from '../../catalog/pricing/price-schedule.js';
import { GatewayError } from '../../errors/gateway-error.js';
import type { FormatName } from '../../ir/format-name.js';
import { ownOutputCapFields } from '../../wire/output-cap-fields.js';

/** What a text call's worst case is worked out from. */
export interface TextCallToReserve {
  readonly model: CatalogModel;
  readonly rawBody: string;
  readonly parsedBody: Readonly<Record<string, unknown>>;
  /** The headers sent upstream with the body (`anthropic-beta` among them). */
  readonly forwarded: Readonly<Record<string, string>>;
}

/**
 * A text call's worst case for its key's budgets (docs/limits-and-budgets.md), first refusing
 * what no budget can be kept on: a model without a price (402), and a part of the request the
 * upstream bills beyond the model's token price, which the ledger would not see (400).
 */
export function textCallWorstCase(format: FormatName, call: TextCallToReserve, startedAt: number): bigint {
  const price = priceAt(call.model.prices, startedAt);
  if (!isPriced('text', price)) throw unpricedModelRefusal(call.model.id);
  const charge = unpricedChargeIn(format, call.parsedBody, call.forwarded, price);
  if (charge !== undefined) {
    throw new GatewayError(
      'unsupported_parameter',
      `${charge.what} is not available to API keys with a budget: the gateway cannot price it, so it cannot keep the budget. Leave it out, or use a key without a budget.`,
      { param: charge.param },
    );
  }
  const bound = outputBound(format, call.parsedBody);
  let worst = worstTextCostNanoUsd(price, call.rawBody, bound);
  // A later route with a price of its own may serve the call: the reservation covers the dearest.
  for (const route of call.model.routes) {
    if (route.prices === undefined) continue;
    const routePrice = priceAt(route.prices, startedAt);
    if (routePrice === undefined) continue;
    const routeWorst = worstTextCostNanoUsd(routePrice, call.rawBody, bound);
    if (routeWorst > worst) worst = routeWorst;
  }
  return worst;
}

/** An uncapped call's refusal says which cap field lowers its reservation; a capped call's is left as it is. */
export function explainTextRefusal(format: FormatName, refusal: unknown, call: TextCallToReserve): unknown {
  const bound = outputBound(format, call.parsedBody);
  if (bound.capTokens !== undefined) return refusal;
  return withOutputCapHint(refusal, ownOutputCapFields[format][0] as string, uncappedOutputTokens * bound.choices);
}
