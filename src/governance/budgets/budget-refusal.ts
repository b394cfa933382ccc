import { formatNanoUsd } from '../../catalog/pricing/decimal-usd.js';
import { GatewayError } from '../../errors/gateway-error.js';

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

/**
 * A budget refusal of a call that set no output cap, which was reserved at the uncapped bound:
 * says so, and names the format's own cap field (`capField`), which lowers the reservation.
 * Anything else is returned as it is.
 */
export function withOutputCapHint(error: unknown, capField: string, uncappedTokens: number): unknown {
  if (!(error instanceof GatewayError) || error.code !== 'budget_exhausted') return error;
  return new GatewayError(
    'budget_exhausted',
    `${error.message} The request sets no output cap, so it was reserved at ${uncappedTokens.toLocaleString('en-US')} output tokens; setting ${capField} lowers the reservation.`,
  );
}
