import type { Hono } from 'hono';
import { GatewayError } from '../../errors/gateway-error.js';
import { errorResponse } from '../../http/error-response.js';
import type { GatewayEnvironment } from '../../http/exchange.js';
import type { GatewayServices } from '../gateway-services.js';
import { handleMetrics } from './metrics-endpoint.js';
import { handleReady } from './ready-endpoint.js';

/**
 * `GET /metrics` and `GET /ready` (docs/api.md, "Health, readiness and metrics"); `/health` is
 * answered by the request listener.
 */
export function registerObservabilityRoutes(app: Hono<GatewayEnvironment>, services: GatewayServices): void {
  app.get('/metrics', (context) => handleMetrics(context, services));
  app.get('/ready', (context) => handleReady(context, services));
  for (const path of ['/metrics', '/ready']) {
    app.all(path, (context) => {
      const response = errorResponse(new GatewayError('method_not_allowed', 'Method not allowed: use GET, HEAD.'), context.get('requestId'));
      response.headers.set('allow', 'GET, HEAD');
      return response;
    });
  }
}
