import type { Hono } from 'hono';
import type { GatewayEnvironment } from '../../http/exchange.js';
import type { GatewayServices } from '../gateway-services.js';
import { registerAdminKeyRoutes } from './admin-key-routes.js';
import { registerAdminReadRoutes } from './admin-read-routes.js';

/** Every `/admin` endpoint (docs/api.md, "Admin API"); each handler starts with `adminCaller`. */
export function registerAdminRoutes(app: Hono<GatewayEnvironment>, services: GatewayServices): void {
  registerAdminKeyRoutes(app, services);
  registerAdminReadRoutes(app, services);
}
