import { GatewayError } from '../../errors/gateway-error.js';
import { errorResponse } from '../../http/error-response.js';
import type { GatewayContext } from '../../http/exchange.js';
import type { GatewayServices } from '../gateway-services.js';

const notReadyMessages = {
  shutting_down: 'The gateway is shutting down.',
  database_unreachable: 'The database does not answer.',
  redis_unreachable: 'Redis, which holds the limits and budgets shared by every instance, does not answer.',
} as const;

/**
 * `GET /ready`: 200 while this instance should get traffic; 503 (OpenAI error shape) once its
 * shutdown has begun or while its database (or the Redis it needs) does not answer. `/health` says only that it runs.
 */
export async function handleReady(context: GatewayContext, services: GatewayServices): Promise<Response> {
  const requestId = context.get('requestId');
  const reason = await services.readiness.check();
  if (reason !== undefined) return errorResponse(new GatewayError('not_ready', notReadyMessages[reason]), requestId);
  return new Response(JSON.stringify({ status: 'ready' }), {
    status: 200,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store', 'x-request-id': requestId },
  });
}
