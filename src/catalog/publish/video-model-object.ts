import type { CatalogModel } from '../model-catalog.js';
import { priceAt } from '../pricing/price-schedule.js';
import { defaultVariant, sellableVariants } from '../sellable-variants.js';
import { publishedVariant } from './published-prices.js';

function distinct<Value>(values: readonly Value[]): Value[] {
  return [...new Set(values)];
}

/**
 * One `video_model` record: only the variants sold now (a price and a route that can be called),
 * and the lists of modes, resolutions, durations and aspect ratios derived from those variants,
 * and per mode the variant and length a submit that names none gets.
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
    // What a submit that leaves out `size` (or `resolution` and `aspect_ratio`) and `seconds` gets, by mode.
    defaults: distinct(variants.map((variant) => variant.mode)).flatMap((mode) => {
      const chosen = defaultVariant(variants, mode);
      if (chosen === undefined) return [];
      const { variant, seconds } = chosen;
      return [{ mode, size: variant.size, resolution: variant.resolution, aspect_ratio: variant.aspectRatio, seconds: String(seconds) }];
    }),
  };
}
