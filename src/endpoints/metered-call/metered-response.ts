import { chunkStreamResponse } from '../../http/chunk-stream-response.js';
import type { GatewayContext } from '../../http/exchange.js';
import type { GatewayServices } from '../gateway-services.js';
import { runMeteredCall } from './metered-call.js';
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
  const answer = await runMeteredCall(endpoint, exchange, services);
  const body = answer.body;
  if (typeof body !== 'string' && !(body instanceof Uint8Array)) return chunkStreamResponse(body, streamHeaders(answer.headers));
  // A whole answer's headers go out in name order, as the framework wrote them when it built one.
  const headers = answer.status < 400 ? new Headers(answer.headers) : answer.headers;
  return new Response(body as string | Uint8Array<ArrayBuffer>, { status: answer.status, headers });
}

/** A stream's headers in the order its answer has always had: its type and caching first, then its id and the limits. */
function streamHeaders(headers: Record<string, string>): Record<string, string> {
  const { 'content-type': contentType = '', 'cache-control': cacheControl = 'no-cache', ...rest } = headers;
  return { 'content-type': contentType, 'cache-control': cacheControl, ...rest };
}
