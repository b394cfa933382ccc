import type { GatewayConfig } from '../config/config-schema.js';
import { buildCatalog } from './build-catalog.js';
import type { ModelCatalog } from './model-catalog.js';

export type RoutingSettings = GatewayConfig['routing'];

/**
 * Everything a call needs that a reload may change: the models with their routes and prices, and
 * how to retry and time out across those routes. A call takes one snapshot when it starts and
 * keeps it to the end, so a reload never changes a call already running.
 */
export interface CatalogSnapshot {
  readonly catalog: ModelCatalog;
  readonly routing: RoutingSettings;
}

export async function catalogSnapshot(config: GatewayConfig, simulatorUrl: string | undefined): Promise<CatalogSnapshot> {
  return { catalog: await buildCatalog(config, simulatorUrl), routing: config.routing };
}
