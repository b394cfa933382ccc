import { formatNanoUsd } from '../catalog/pricing/decimal-usd.js';
import type { ApiKeyChanges } from './api-key.js';

/** Settings as the admin API names them: budgets as USD decimal strings, times in ISO 8601. */
export function keySettingsWire(settings: ApiKeyChanges & { readonly admin?: boolean }): Record<string, unknown> {
  const wire: Record<string, unknown> = {};
  if (settings.name !== undefined) wire.name = settings.name;
  if (settings.admin !== undefined) wire.admin = settings.admin;
  if (settings.scopes !== undefined) wire.scopes = { ...settings.scopes };
  if (settings.budgetNanoUsd !== undefined) wire.budget_usd = usdOrNull(settings.budgetNanoUsd);
  if (settings.dailyBudgetNanoUsd !== undefined) wire.daily_budget_usd = usdOrNull(settings.dailyBudgetNanoUsd);
  if (settings.monthlyBudgetNanoUsd !== undefined) wire.monthly_budget_usd = usdOrNull(settings.monthlyBudgetNanoUsd);
  if (settings.rpm !== undefined) wire.rpm = settings.rpm;
  if (settings.tpm !== undefined) wire.tpm = settings.tpm;
  if (settings.concurrency !== undefined) wire.concurrency = settings.concurrency;
  if (settings.expiresAt !== undefined) wire.expires_at = settings.expiresAt?.toISOString() ?? null;
  return wire;
}

export function usdOrNull(nano: bigint | null): string | null {
  return nano === null ? null : formatNanoUsd(nano);
}
