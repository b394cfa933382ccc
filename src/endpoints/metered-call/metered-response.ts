import { chunkStreamResponse } from '../../http/chunk-stream-response.js';
import type { GatewayContext } from '../../http/exchange.js';
import type { GatewayServices } from '../gateway-services.js';
import { runMeteredCall } from './metered-call.js';
import { MeteredCall } from './metered-call-state.js';
import type { MeteredAnswer, MeteredEndpoint } from './metered-endpoint.js';

/**
 * A metered call answered through the HTTP framework (images, videos, `count_tokens`): the same
 * pipeline as the text endpoints, its answer handed back as a Web Response.
 */
export async function meteredResponse<Asked, Decoded, Answer extends MeteredAnswer>(
  context: GatewayContext,
  services: GatewayServices,
  endpoint: MeteredEndpoint<Asked, Decoded, Answer>,
): Promise<Response> {
  const exchange = { incoming: context.env.incoming, outgoing: context.env.outgoing, requestId: context.get('requestId'), pathParameters: context.req.param() };
  const call = new MeteredCall(exchange, services);
  const answer = await runMeteredCall(endpoint, exchange, services, call);
  const body = answer.body;
  if (typeof body !== 'string' && !(body instanceof Uint8Array)) return chunkStreamResponse(body, streamHeaders(answer.headers));
  // Headers go out in name order where the framework wrote them so: a whole answer's, and an
  // error's that carries the key's rate-limit headers.
  const sorted = answer.status < 400 || Object.keys(call.limits?.headers(endpoint.format.name) ?? {}).length > 0;
  const headers = sorted ? new Headers(answer.headers) : answer.headers;
  return new Response(body as string | Uint8Array<ArrayBuffer>, { status: answer.status, headers });
}

/** A stream's headers in the order its answer has always had: its type and caching first, then its id and the limits. */
function streamHeaders(headers: Record<string, string>): Record<string, string> {
  const { 'content-type': contentType = '', 'cache-control': cacheControl = 'no-cache', ...rest } = headers;
  return { 'content-type': contentType, 'cache-control': cacheControl, ...rest };
}
