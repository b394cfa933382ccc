import type { CatalogModel } from '../model-catalog.js';
import { priceAt } from '../pricing/price-schedule.js';
import { sellableVariants } from '../sellable-variants.js';
import { publishedVariant } from './published-prices.js';

function distinct<Value>(values: readonly Value[]): Value[] {
  return [...new Set(values)];
}

/**
 * One `video_model` record: only the variants sold now (a price and a route that can be called),
 * and the lists of modes, resolutions, durations and aspect ratios derived from those variants.
 * Undefined when it sells none.
 */
export function videoModelObject(model: CatalogModel, now: Date): Record<string, unknown> | undefined {
  if (model.video === undefined || !model.callable) return undefined;
  const variants = sellableVariants(model.video, priceAt(model.prices, now));
  if (variants.length === 0) return undefined;
  return {
    id: model.id,
    object: 'video_model',
    owned_by: model.ownedBy,
    modes: distinct(variants.map((variant) => variant.mode)),
    resolutions: distinct(variants.map((variant) => variant.resolution)),
    durations: distinct(variants.flatMap((variant) => variant.seconds))
      .sort((left, right) => left - right)
      .map(String),
    aspect_ratios: distinct(variants.map((variant) => variant.aspectRatio)),
    remix: model.video.remix,
    variants: variants.map(publishedVariant),
  };
}
