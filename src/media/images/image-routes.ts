import type { CatalogModel, CatalogRoute } from '../../catalog/model-catalog.js';
import { GatewayError } from '../../errors/gateway-error.js';
import type { ImageCapability, ProviderAdapter } from '../../providers/provider-adapter.js';
import { adapterFor } from '../../providers/registry.js';

/** A route of an image model with the upstream capability that serves it. */
export interface ImageRoute {
  readonly route: CatalogRoute;
  readonly adapter: ProviderAdapter;
  /** Answered whole (or streamed), or made as jobs the gateway polls (`jobs`). */
  readonly images: ImageCapability;
}

/**
 * The model's routes whose upstream can do what is asked (generate, or edit), in order; none is
 * a `no_route` error, since the endpoint never looks at a provider's kind to know better.
 */
export function imageRoutes(model: CatalogModel, editing: boolean): ImageRoute[] {
  const candidates = model.routes.flatMap((route) => {
    const adapter = adapterFor(route.target);
    const images = adapter.images;
    if (images === undefined || (editing && !images.edits)) return [];
    return [{ route, adapter, images }];
  });
  if (candidates.length === 0) {
    throw new GatewayError('no_route', `No upstream of the model '${model.id}' can ${editing ? 'edit' : 'generate'} images.`, { param: 'model' });
  }
  return candidates;
}
