import type { CatalogModel } from '../model-catalog.js';
import type { PriceEntry } from '../pricing/model-price.js';
import { priceAt, scheduledAfter } from '../pricing/price-schedule.js';
import { publishedImagePrices, publishedTokenPrices, publishedVideoPrices } from './published-prices.js';

/** The prices of one entry, under the key of the model's modality. */
function pricesOf(model: CatalogModel, entry: PriceEntry): Record<string, unknown> {
  if (model.outputModality === 'image') return entry.image === undefined ? {} : { image: publishedImagePrices(entry.image) };
  if (model.outputModality === 'video') return entry.video === undefined ? {} : { video: publishedVideoPrices(entry.video, model.video) };
  return entry.text === undefined ? {} : { text: publishedTokenPrices(entry.text) };
}

/**
 * One model's `model.pricing` record: the price in force at `now` and the scheduled ones. A model
 * without a price in force is published as `"priced": false`, never as free.
 */
export function pricingRecord(model: CatalogModel, now: Date): Record<string, unknown> {
  const head = { object: 'model.pricing', model: model.id, output_modality: model.outputModality };
  const current = priceAt(model.prices, now);
  const scheduled = scheduledAfter(model.prices, now).map((entry) => ({ effective_from: entry.effectiveFrom, ...pricesOf(model, entry) }));
  if (current === undefined) return { ...head, priced: false, ...(scheduled.length > 0 ? { scheduled } : {}) };
  // A free model is priced, at zero, because the operator said so: `free` tells it from a price of cents.
  return { ...head, priced: true, ...(current.free === true ? { free: true } : {}), currency: 'USD', effective_from: current.effectiveFrom, ...pricesOf(model, current), scheduled };
}
