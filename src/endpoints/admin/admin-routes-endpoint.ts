import { priceSourceRecord } from '../../catalog/publish/price-source-record.js';
import type { CatalogRoute } from '../../catalog/model-catalog.js';
import type { RouteCircuit } from '../../routing/circuit-breaker.js';
import { errorResponse } from '../../http/error-response.js';
import type { GatewayContext } from '../../http/exchange.js';
import type { GatewayServices } from '../gateway-services.js';
import { jsonAnswer } from '../videos/video-caller.js';
import { adminCaller } from './admin-caller.js';

/**
 * `GET /admin/routes`: every model's routes in order, each with its circuit breaker as this
 * instance sees it (breakers are per process: another instance may see the same route otherwise),
 * and where the model's prices came from.
 */
export async function handleAdminRoutes(context: GatewayContext, services: GatewayServices): Promise<Response> {
  const requestId = context.get('requestId');
  try {
    await adminCaller(context, services);
    const { catalog, routing } = services.catalog.current();
    const data = catalog.models.map((model) => ({
      object: 'admin.model_routes',
      model: model.id,
      output_modality: model.outputModality,
      ...priceSourceRecord(model),
      routes: services.circuitBreakers.describe(model.routes, routing.circuit_breaker).map((circuit) => routeObject(circuit, model.routes)),
    }));
    return jsonAnswer({ object: 'list', circuit_breaker: routing.circuit_breaker, data }, requestId);
  } catch (error) {
    return errorResponse(error, requestId);
  }
}

/** A route with a price of its own (the dataset prices it at another row than the model) says so; the others cost the model's price. */
function routeObject(circuit: RouteCircuit, routes: readonly CatalogRoute[]) {
  const ownPrices = routes.find((route) => route.target.providerName === circuit.provider && route.target.model === circuit.upstreamModel)?.prices;
  return {
    ...(ownPrices === undefined ? {} : priceSourceRecord({ prices: ownPrices })),
    provider: circuit.provider,
    upstream_model: circuit.upstreamModel,
    state: circuit.state,
    consecutive_failures: circuit.consecutiveFailures,
    opened_at: circuit.openedAt?.toISOString() ?? null,
    retry_at: circuit.retryAt?.toISOString() ?? null,
  };
}
