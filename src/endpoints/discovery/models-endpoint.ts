import type { CatalogModel } from '../../catalog/model-catalog.js';
import type { GatewayContext } from '../../http/exchange.js';
import type { GatewayServices } from '../gateway-services.js';
import { discoveryAnswer, parseModalities } from './discovery-request.js';

/**
 * `GET /models`: callable models in the OpenAI list shape, text only unless `output_modalities`
 * asks for image, video or all. With a key, only what that key may call is listed.
 */
export function handleListModels(context: GatewayContext, services: GatewayServices): Promise<Response> {
  return discoveryAnswer(context, services, (discovery) => ({
    object: 'list',
    data: discovery.visible(parseModalities(context.req.query('output_modalities'), ['text'])).map(modelObject),
  }));
}

/** `GET /models/{id}`: one model, by public id, alias or legacy alias. */
export function handleRetrieveModel(context: GatewayContext, services: GatewayServices): Promise<Response> {
  // Hono has already percent-decoded the parameter (leaving malformed escapes as sent); decoding
  // again would turn a literal '%' in a name into a URIError and a 500.
  return discoveryAnswer(context, services, (discovery) => modelObject(discovery.named(context.req.param('id') ?? '')));
}

function modelObject(model: CatalogModel): Record<string, unknown> {
  return { id: model.id, object: 'model', created: model.created, owned_by: model.ownedBy, output_modality: model.outputModality };
}
