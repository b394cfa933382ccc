import { formatNanoUsd } from '../catalog/pricing/decimal-usd.js';
import { GatewayError } from '../errors/gateway-error.js';

export type BudgetKind = 'absolute' | 'daily' | 'monthly';

/**
 * The 402 for a reservation that does not fit: `spent` is the period's recorded spend, `committed`
 * the reservations in flight plus this call's worst case `worst`. Worded alike whichever store checked.
 */
export function budgetRefusal(kind: BudgetKind, limit: bigint, spent: bigint, committed: bigint, worst: bigint): GatewayError {
  const left = limit - spent > 0n ? limit - spent : 0n;
  const name = kind === 'absolute' ? 'budget' : `${kind} budget`;
  return new GatewayError(
    'budget_exhausted',
    `This API key's ${name} of $${formatNanoUsd(limit)} has no room for this request: it could cost up to $${formatNanoUsd(worst)} and $${formatNanoUsd(left)} is left${committed > worst ? ' beside requests in flight' : ''}.`,
  );
}
