import { GatewayError } from '../../errors/gateway-error.js';
import { assertEndpointAllowed } from '../../keys/key-scope.js';
import { findStoredResponse, type StoredConversation } from '../../stored-responses/stored-conversation.js';
import type { StoredResponseRecord } from '../../stored-responses/response-store.js';
import { errorResponse } from '../../http/error-response.js';
import type { GatewayServices } from '../gateway-services.js';
import type { GatewayContext } from '../../http/exchange.js';

/** `GET /v1/responses/{id}`: a response stored with `store: true`, for the key that made it. */
export async function handleGetResponse(context: GatewayContext, services: GatewayServices): Promise<Response> {
  const requestId = context.get('requestId');
  try {
    const record = await findOwnedResponse(context, services);
    const stored = JSON.parse(record.body) as StoredConversation;
    return context.json(stored.response, 200, { 'x-request-id': requestId });
  } catch (error) {
    return errorResponse(error, requestId);
  }
}

/** `DELETE /v1/responses/{id}`. */
export async function handleDeleteResponse(context: GatewayContext, services: GatewayServices): Promise<Response> {
  const requestId = context.get('requestId');
  try {
    const record = await findOwnedResponse(context, services);
    await services.storage.responses.delete(record.id);
    return context.json({ id: context.req.param('id') ?? '', object: 'response.deleted', deleted: true }, 200, { 'x-request-id': requestId });
  } catch (error) {
    return errorResponse(error, requestId);
  }
}

/** The stored response named in the path; another key's response is reported as missing. */
async function findOwnedResponse(context: GatewayContext, services: GatewayServices): Promise<StoredResponseRecord> {
  const key = await services.authenticator.authenticate(context.req.raw.headers);
  assertEndpointAllowed(key, 'responses');
  const id = context.req.param('id') ?? '';
  const record = await findStoredResponse(services.storage.responses, id, key?.id ?? null);
  if (record === undefined) {
    throw new GatewayError('not_found', `No response found with id '${id}'.`, { param: 'response_id' });
  }
  return record;
}
