import type { ModelCatalog } from './model-catalog.js';
import { isPriced } from './pricing/is-priced.js';
import { priceAt } from './pricing/price-schedule.js';

/** The callable models with no price in force at `now`: served to keys without a budget, refused to keys with one. */
export function unpricedModelIds(catalog: ModelCatalog, now: Date): string[] {
  return catalog.models.filter((model) => model.callable && !isPriced(model.outputModality, priceAt(model.prices, now))).map((model) => model.id);
}
