import { ConfigError } from '../../config/load-config.js';
import { adapterFor } from '../../providers/registry.js';
import type { CatalogRoute } from '../model-catalog.js';
import type { VideoModelRecord } from './video-model-record.js';

/**
 * Refuses, at start, a video model whose variants one of its routes cannot make: a vendor that
 * takes only some lengths or resolutions of a model would otherwise fail each such job after it
 * was sold. The field named is the configured variant, or the route when the variants are the
 * built-in record's.
 */
export function checkVideoRoutes(where: string, video: VideoModelRecord, routes: readonly CatalogRoute[], variantsConfigured: boolean): void {
  routes.forEach((route, routeIndex) => {
    const refuse = adapterFor(route.target).videos?.refuseVariant;
    if (refuse === undefined) return;
    video.variants.forEach((variant, variantIndex) => {
      const reason = refuse(variant, route.target.model);
      if (reason === undefined) return;
      const field = variantsConfigured ? `${where}.video.variants[${variantIndex}]` : `${where}.routes[${routeIndex}]`;
      throw new ConfigError(`${field}: the route to provider "${route.target.providerName}" (model ${route.target.model}) cannot make ${variant.mode} ${variant.resolution} ${variant.aspectRatio} at ${variant.seconds.join('/')} s: ${reason}`);
    });
  });
}
