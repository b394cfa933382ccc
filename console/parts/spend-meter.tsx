import { showUsd, usdNumber } from '../money.js';
import type { KeyObject } from '../types.js';

/**
 * A key's spend against each budget it has (total, this month, today), as the admin API reports
 * it from the ledger's running totals; spend alone where there is no budget.
 */
export function SpendMeters(props: { apiKey: KeyObject }) {
  const { spend } = props.apiKey;
  const budgets = [
    { label: 'Total', spent: spend.total_usd, budget: props.apiKey.budget_usd },
    { label: 'Month', spent: spend.month_usd, budget: props.apiKey.monthly_budget_usd },
    { label: 'Day', spent: spend.day_usd, budget: props.apiKey.daily_budget_usd },
  ].filter((row) => row.budget !== null);
  return (
    <div class="meters">
      <span data-testid={`spend-${props.apiKey.id}`} data-spend-usd={spend.total_usd}>
        {showUsd(spend.total_usd)} spent
      </span>
      {budgets.map((row) => (
        <label key={row.label} class="meter-row">
          <span>
            {row.label}: {showUsd(row.spent)} of {showUsd(row.budget)}
          </span>
          <meter min={0} max={usdNumber(row.budget ?? '0')} high={usdNumber(row.budget ?? '0') * 0.8} value={usdNumber(row.spent)} />
        </label>
      ))}
    </div>
  );
}
