import type { CatalogModel } from '../../catalog/model-catalog.js';
import { errorResponse } from '../error-response.js';
import type { GatewayContext } from '../exchange.js';
import type { GatewayServices } from '../gateway-services.js';
import { discoveryRequest, parseModalities } from './discovery-request.js';

/**
 * `GET /models`: callable models in the OpenAI list shape, text only unless `output_modalities`
 * asks for image, video or all. With a key, only what that key may call is listed.
 */
export async function handleListModels(context: GatewayContext, services: GatewayServices): Promise<Response> {
  const requestId = context.get('requestId');
  try {
    const discovery = await discoveryRequest(context, services);
    const data = discovery.visible(parseModalities(context.req.query('output_modalities'), ['text'])).map(modelObject);
    return context.json({ object: 'list', data }, 200, { 'x-request-id': requestId });
  } catch (error) {
    return errorResponse(error, requestId);
  }
}

/** `GET /models/{id}`: one model, by public id, alias or legacy alias. */
export async function handleRetrieveModel(context: GatewayContext, services: GatewayServices): Promise<Response> {
  const requestId = context.get('requestId');
  try {
    const discovery = await discoveryRequest(context, services);
    // Hono has already percent-decoded the parameter (leaving malformed escapes as sent); decoding
    // again would turn a literal '%' in a name into a URIError and a 500.
    const model = discovery.named(context.req.param('id') ?? '');
    return context.json(modelObject(model), 200, { 'x-request-id': requestId });
  } catch (error) {
    return errorResponse(error, requestId);
  }
}

function modelObject(model: CatalogModel): Record<string, unknown> {
  return { id: model.id, object: 'model', created: model.created, owned_by: model.ownedBy, output_modality: model.outputModality };
}
