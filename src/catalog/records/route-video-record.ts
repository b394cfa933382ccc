import { ConfigError } from '../../config/load-config.js';
import type { VideoVariantConfig } from '../../config/model-record-schema.js';
import { adapterFor } from '../../providers/registry.js';
import type { CatalogRoute } from '../model-catalog.js';
import type { BuiltinVideoRecord } from './builtin-video-records.js';

/**
 * A video model its first route's upstream knows by its own id (a host's built-in input map, such
 * as Replicate's for Kling or Seedance): the variants the map can ask for, unpriced — what is sold
 * is what the model's config prices (`price.per_second`).
 */
export function routeVideoRecord(route: CatalogRoute | undefined): BuiltinVideoRecord | undefined {
  if (route === undefined) return undefined;
  const known = adapterFor(route.target).videos?.knownModel?.(route.target.model);
  if (known === undefined) return undefined;
  const variants = known.variants.map((variant) => ({
    mode: variant.mode,
    resolution: variant.resolution,
    aspect_ratio: variant.aspectRatio,
    ...(variant.size === undefined ? {} : { size: variant.size }),
    seconds: [...variant.seconds],
  }));
  return { ownedBy: known.ownedBy, effectiveFrom: '1970-01-01', remix: false, variants };
}

/**
 * Refuses at start a variant one of the model's routes cannot ask its upstream for (a mode,
 * resolution, aspect ratio or length its input map has no value for), naming the variant and the
 * route: a model must not sell what a route would send as something else.
 */
export function assertRoutesExpressVariants(where: string, routes: readonly CatalogRoute[], variants: readonly VideoVariantConfig[], configured: boolean): void {
  for (const route of routes) {
    const refusal = adapterFor(route.target).videos?.variantRefusal;
    if (refusal === undefined) continue;
    variants.forEach((variant, index) => {
      const shape = { mode: variant.mode, resolution: variant.resolution, aspectRatio: variant.aspect_ratio, seconds: variant.seconds, ...(variant.size === undefined ? {} : { size: variant.size }) };
      const reason = refusal(route.target.model, shape);
      if (reason === undefined) return;
      const field = configured ? `${where}.video.variants[${index}]` : `${where}.routes`;
      throw new ConfigError(`${field}: ${reason} (the route to provider "${route.target.providerName}", model "${route.target.model}")`);
    });
  }
}
