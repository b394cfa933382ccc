import { adminCaller } from '../admin/admin-caller.js';
import { errorResponse } from '../../http/error-response.js';
import type { GatewayContext } from '../../http/exchange.js';
import type { GatewayServices } from '../gateway-services.js';

/**
 * `GET /metrics`: the Prometheus text exposition. It shows spend and traffic by model, so it needs
 * an admin key (a scraper sends it as a bearer token), unless `metrics.public` opens it.
 */
export async function handleMetrics(context: GatewayContext, services: GatewayServices): Promise<Response> {
  const requestId = context.get('requestId');
  try {
    if (!services.config.metrics.public) await adminCaller(context, services);
    const body = await services.metrics.scrape();
    return new Response(body, { status: 200, headers: { 'content-type': services.metrics.contentType, 'cache-control': 'no-store', 'x-request-id': requestId } });
  } catch (error) {
    return errorResponse(error, requestId);
  }
}
