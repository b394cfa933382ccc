import type { GatewayConfig } from '../config/config-schema.js';
import { ModelCatalog } from './model-catalog.js';

/**
 * The one way a loaded configuration becomes a catalog. Start-up and reload both go through here,
 * so how a catalog is built can change without either of them knowing.
 */
export function buildCatalog(config: GatewayConfig, simulatorUrl: string | undefined): ModelCatalog {
  return new ModelCatalog(config, simulatorUrl);
}
