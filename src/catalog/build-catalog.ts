import type { GatewayConfig } from '../config/config-schema.js';
import { ModelCatalog } from './model-catalog.js';
import { loadDatasetTokenPrices } from './pricing/dataset-token-prices.js';
import { hasOwnRates } from './pricing/price-entry-from-config.js';

/**
 * The catalog a config describes. The pricing dataset (about 100 ms and 20 MB to load) is loaded
 * only when a text model has no token price of its own to fall back from.
 */
export async function buildCatalog(config: GatewayConfig, simulatorUrl: string | undefined): Promise<ModelCatalog> {
  const needsDataset = config.models.some((model) => {
    if (model.output_modality !== 'text') return false;
    const prices = model.price === undefined ? [] : Array.isArray(model.price) ? model.price : [model.price];
    return !prices.some(hasOwnRates);
  });
  const tokenPriceDefaults = needsDataset ? await loadDatasetTokenPrices() : undefined;
  return new ModelCatalog(config, {
    ...(simulatorUrl === undefined ? {} : { simulatorUrl }),
    ...(tokenPriceDefaults === undefined ? {} : { tokenPriceDefaults }),
  });
}
