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
import type { CallLimits } from '../../governance/key-limits.js';
import { ownOutputCapFields } from '../../wire/output-cap-fields.js';

/** What a text call's reservation is worked out from. */
export interface TextCallToReserve {
  readonly requestId: string;
  readonly model: CatalogModel;
  readonly startedAt: number;
  readonly format: FormatName;
  readonly rawBody: string;
  readonly parsedBody: Readonly<Record<string, unknown>>;
  /** The headers sent upstream with the body (`anthropic-beta` among them). */
  readonly forwarded: Readonly<Record<string, string>>;
}

/**
 * Reserves a text call's worst case against its key's budgets (docs/limits-and-budgets.md), first refusing
 * what no budget can be kept on: a model without a price (402), and a part of the request the
 * upstream bills beyond the model's token price, which the ledger would not see (400). Keys
 * without a budget meet none of it. Undefined when there was nothing to wait for (an await costs
 * the hot path a turn); a refusal is thrown or a rejected promise.
 */
export function reserveTextCall(limits: CallLimits, call: TextCallToReserve): Promise<void> | undefined {
  if (!limits.reserves) return undefined;
  const price = priceAt(call.model.prices, call.startedAt);
  if (!isPriced('text', price)) throw unpricedModelRefusal(call.model.id);
  const charge = unpricedChargeIn(call.format, call.parsedBody, call.forwarded, price);
  if (charge !== undefined) {
    throw new GatewayError(
      'unsupported_parameter',
      `${charge.what} is not available to API keys with a budget: the gateway cannot price it, so it cannot keep the budget. Leave it out, or use a key without a budget.`,
      { param: charge.param },
    );
  }
  const bound = outputBound(call.format, call.parsedBody);
  const worst = worstTextCostNanoUsd(price, call.rawBody, bound);
  if (bound.capTokens !== undefined) return limits.reserve(call.requestId, worst);
  // An uncapped call's refusal (thrown, or a rejected promise) says which cap field lowers it.
  const hinted = (error: unknown) => withOutputCapHint(error, ownOutputCapFields[call.format][0] as string, uncappedOutputTokens * bound.choices);
  try {
    return limits.reserve(call.requestId, worst)?.catch((error: unknown) => {
      throw hinted(error);
    });
  } catch (error) {
    throw hinted(error);
  }
}
