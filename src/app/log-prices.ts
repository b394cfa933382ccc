import type { CatalogSnapshot } from '../catalog/catalog-snapshot.js';
import { priceSourceRecord } from '../catalog/publish/price-source-record.js';
import { unpricedModelIds } from '../catalog/unpriced-models.js';
import type { Logger } from '../logging/logger.js';

/**
 * What an operator should hear of about prices at start and on every reload, rather than from a
 * client or an invoice: where each model's prices come from (one line at debug level: a start at
 * the default level stays the one line naming the address; `/admin/routes` and the console show it
 * too), each callable model
 * without a price (it answers keys without a budget at $0.00 in the ledger, and keys with a budget
 * are refused it), and each cross-region profile priced at its model's in-region price because the
 * dataset has no row for the profile.
 */
export function logPrices(snapshot: CatalogSnapshot, logger: Logger): void {
  const models = snapshot.catalog.models;
  if (models.length > 0) {
    logger.debug({ prices: models.map((model) => ({ model: model.id, ...priceSourceRecord(model) })) }, 'model prices: where each model is priced from');
  }
  for (const model of unpricedModelIds(snapshot.catalog, new Date())) {
    logger.warn({ model }, `model '${model}' has no price: keys with a budget are refused it, and other keys' calls are recorded at $0; give it a price, or price: { free: true } to serve it free`);
  }
  for (const model of models) {
    const origin = model.prices?.origin;
    if (origin?.crossRegion === undefined || origin.crossRegion.profilePriced) continue;
    logger.warn(
      { model: model.id, dataset_model: origin.model },
      `model '${model.id}' is priced at ${origin.model} in one region: the pricing dataset has no price for its '${origin.crossRegion.prefix}.' cross-region profile; give it a price if the profile costs more`,
    );
  }
}
