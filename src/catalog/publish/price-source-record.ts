import type { CatalogModel } from '../model-catalog.js';

/**
 * Where a model's prices came from, for operators (the admin API, the console, the start's log):
 * `config`, `cloud-dataset` (the pricing dataset's row for the cloud that serves it),
 * `vendor-dataset` (the row of the model's vendor), `builtin` (the gateway's media prices) or
 * `none`; with the dataset row, when there is one. Clients' pricing records leave it out: their
 * shape is fixed.
 */
export function priceSourceRecord(model: Pick<CatalogModel, 'prices'>): Record<string, unknown> {
  const schedule = model.prices;
  if (schedule === undefined) return { price_source: 'none', price_dataset_row: null };
  const origin = schedule.origin;
  if (origin === undefined) return { price_source: schedule.source, price_dataset_row: null };
  const crossRegion = origin.crossRegion;
  return {
    price_source: schedule.source,
    price_dataset_row: {
      provider: origin.provider,
      model: origin.model,
      looked_up: origin.lookedUp,
      ...(crossRegion === undefined
        ? {}
        : { cross_region: { prefix: crossRegion.prefix, profile_priced: crossRegion.profilePriced, against_in_region: crossRegion.againstInRegion } }),
    },
  };
}
