import { GatewayError } from '../../errors/gateway-error.js';
import { errorResponse } from '../../http/error-response.js';
import type { GatewayContext } from '../../http/exchange.js';
import type { GatewayServices } from '../gateway-services.js';
import { assertJsonContentType, parseJsonObject, readRequestBody } from '../../http/read-request-body.js';

/** A JSON answer with the request id, as every admin endpoint gives. */
export function adminJson(body: unknown, requestId: string, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', 'x-request-id': requestId } });
}

/** 405 with `allow`, for the other methods on an admin path. */
export function adminMethodNotAllowed(context: GatewayContext, allowed: string): Response {
  const response = errorResponse(new GatewayError('method_not_allowed', `Method not allowed: use ${allowed}.`), context.get('requestId'));
  response.headers.set('allow', allowed);
  return response;
}

/**
 * The JSON object a write sends. With `optional`, an empty body stands for `{}` (a rotation
 * needs no settings); any body that is sent must be JSON.
 */
export async function adminBody(context: GatewayContext, services: GatewayServices, options: { readonly optional?: boolean } = {}): Promise<Record<string, unknown>> {
  const incoming = context.env.incoming;
  const body = await readRequestBody(incoming, services.config.server.body_limit_bytes);
  if (options.optional === true && body.text.trim() === '') return {};
  assertJsonContentType(incoming.headers['content-type']);
  return parseJsonObject(body.text);
}

/** Refuses query parameters the endpoint does not take, naming the first. */
export function refuseUnknownQuery(query: Readonly<Record<string, string>>, known: readonly string[]): void {
  for (const name of Object.keys(query)) {
    if (!known.includes(name)) throw new GatewayError('unknown_parameter', `Unknown query parameter: '${name}'.`, { param: name });
  }
}
