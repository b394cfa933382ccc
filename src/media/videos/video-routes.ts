import type { CatalogModel, CatalogRoute } from '../../catalog/model-catalog.js';
import { GatewayError } from '../../errors/gateway-error.js';
import type { ProviderAdapter, VideoGeneration } from '../../providers/provider-adapter.js';
import { adapterFor } from '../../providers/registry.js';

/** A route of a video model with the upstream capability that serves it. */
export interface VideoRoute {
  readonly route: CatalogRoute;
  readonly adapter: ProviderAdapter;
  readonly videos: VideoGeneration;
}

/** The model's routes whose upstream runs video jobs, in order; none is a `no_route` error. */
export function videoRoutes(model: CatalogModel): VideoRoute[] {
  const candidates = model.routes.flatMap((route) => {
    const adapter = adapterFor(route.target);
    return adapter.videos === undefined ? [] : [{ route, adapter, videos: adapter.videos }];
  });
  if (candidates.length === 0) throw new GatewayError('no_route', `No upstream of the model '${model.id}' runs video jobs.`, { param: 'model' });
  return candidates;
}

/**
 * The route a job was submitted on, found again by provider name and upstream model: a job is
 * always finished where it started, with that provider's current credential.
 */
export function jobRoute(model: CatalogModel | undefined, provider: string, upstreamModel: string): VideoRoute | undefined {
  const route = model?.routes.find((candidate) => candidate.target.providerName === provider && candidate.target.model === upstreamModel);
  if (route === undefined) return undefined;
  const adapter = adapterFor(route.target);
  return adapter.videos === undefined ? undefined : { route, adapter, videos: adapter.videos };
}
