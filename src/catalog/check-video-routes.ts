import type { ModelConfig } from '../config/config-schema.js';
import { ConfigError } from '../config/load-config.js';
import type { KnownVideoModel, ProviderKind } from '../providers/provider-adapter.js';
import { adapterFor, adapterForKind } from '../providers/registry.js';
import type { CatalogRoute } from './model-catalog.js';
import type { VideoModelRecord } from './records/video-model-record.js';

/**
 * A route's `input` map is read by the video upstreams whose models each name their fields their
 * own way (fal's): anywhere else it would be ignored silently, so it is refused at start instead.
 */
export function assertInputMapsTaken(model: ModelConfig, where: string, kindOf: (provider: string) => ProviderKind): void {
  model.routes.forEach((route, index) => {
    if (route.input === undefined) return;
    const kind = kindOf(route.provider);
    if (model.output_modality !== 'video') throw new ConfigError(`${where}.routes[${index}].input: only video models' routes take an input map`);
    if (adapterForKind(kind).videos?.takesInputMap !== true) throw new ConfigError(`${where}.routes[${index}].input: a ${kind} provider takes no input map (its request fields are the gateway's to write)`);
  });
}

/** The model a video model's first route's upstream knows by id, when the gateway's own records do not. */
export function knownUpstreamVideoModel(routes: readonly CatalogRoute[]): KnownVideoModel | undefined {
  const first = routes[0];
  return first === undefined ? undefined : adapterFor(first.target).videos?.knownModel?.(first.target.model);
}

/**
 * Every route of a video model must be able to ask its upstream for every variant the model
 * sells: a route that cannot (an image-to-video variant with no image field in its map, a length
 * the endpoint does not make) is refused at start, naming the route's field.
 */
export function assertRoutesExpressVariants(model: ModelConfig, where: string, routes: readonly CatalogRoute[], video: VideoModelRecord): void {
  for (const route of routes) {
    const check = adapterFor(route.target).videos?.checkRoute;
    if (check === undefined) continue;
    const problem = check(route.target, video.variants)[0];
    if (problem === undefined) continue;
    const index = model.routes.findIndex((configured) => configured.provider === route.target.providerName && configured.model === route.target.model);
    throw new ConfigError(`${where}.routes[${index}].${problem.field}: ${problem.message}`);
  }
}
