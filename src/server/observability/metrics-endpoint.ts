import { adminCaller } from '../admin/admin-caller.js';
import { errorResponse } from '../error-response.js';
import type { GatewayContext } from '../exchange.js';
import type { GatewayServices } from '../gateway-services.js';

/**
 * `GET /metrics`: the Prometheus text exposition. Public like `/health` (scrapers send no key),
 * unless `metrics.require_admin_key` asks for an admin key.
 */
export async function handleMetrics(context: GatewayContext, services: GatewayServices): Promise<Response> {
  const requestId = context.get('requestId');
  try {
    if (services.config.metrics.require_admin_key) await adminCaller(context, services);
    const body = await services.metrics.scrape();
    return new Response(body, { status: 200, headers: { 'content-type': services.metrics.contentType, 'cache-control': 'no-store', 'x-request-id': requestId } });
  } catch (error) {
    return errorResponse(error, requestId);
  }
}
