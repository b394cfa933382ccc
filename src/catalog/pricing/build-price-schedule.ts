import type { PriceEntryConfig } from '../../config/model-record-schema.js';
import { applyMarkup } from './apply-markup.js';
import type { PriceSchedule } from './model-price.js';
import { hasOwnRates, priceEntryFromConfig } from './price-entry-from-config.js';
import { priceAt, scheduleOf } from './price-schedule.js';

/**
 * A model's prices: the configured ones over the defaults (the pricing dataset for tokens, the
 * gateway's own data for media). A configured entry with rates of its own is the price from its
 * date; one without (only `markup_percent` and perhaps a date) marks up the default price — every
 * default entry when it has no date, else the default in force at its date.
 */
export function buildPriceSchedule(
  configured: readonly PriceEntryConfig[] | undefined,
  defaults: PriceSchedule | undefined,
  modality: 'text' | 'image' | 'video',
): PriceSchedule | undefined {
  if (configured === undefined || configured.length === 0) return defaults;
  const entries = configured.flatMap((config) => {
    if (hasOwnRates(config)) return [applyMarkup(priceEntryFromConfig(config, modality), config.markup_percent)];
    if (defaults === undefined) return [];
    if (config.effective_from === undefined) return defaults.entries.map((entry) => applyMarkup(entry, config.markup_percent));
    const inForce = priceAt(defaults, new Date(`${config.effective_from}T00:00:00Z`)) ?? defaults.entries[0];
    return inForce === undefined ? [] : [applyMarkup({ ...inForce, effectiveFrom: config.effective_from }, config.markup_percent)];
  });
  if (entries.length === 0) return undefined;
  const ownRates = configured.some(hasOwnRates);
  // A markup over the defaults keeps their source: the rates are still the dataset's (or the gateway's).
  if (ownRates || defaults === undefined) return scheduleOf(entries, 'config');
  return scheduleOf(entries, defaults.source, defaults.origin);
}
