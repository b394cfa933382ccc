import { GatewayError } from '../errors/gateway-error.js';
import { isModelAllowed } from '../keys/key-scope.js';
import { assertEndpointAllowed } from '../keys/key-scope.js';
import type { CatalogModel, OutputModality } from '../catalog/model-catalog.js';
import { errorResponse } from './error-response.js';
import type { GatewayServices } from './gateway-services.js';
import type { GatewayContext } from './exchange.js';

const modalityChoices = ['text', 'image', 'video', 'all'] as const;

/**
 * `GET /models`: callable models in the OpenAI list shape, text only unless `output_modalities`
 * asks for image, video or all. With a key, only what that key may call is listed.
 */
export async function handleListModels(context: GatewayContext, services: GatewayServices): Promise<Response> {
  const requestId = context.get('requestId');
  try {
    const key = await services.authenticator.authenticate(context.req.raw.headers, services.config.server.discovery_requires_key);
    if (services.config.server.discovery_requires_key) assertEndpointAllowed(key, 'models');
    const modalities = parseModalities(context.req.query('output_modalities'));
    const data = services.catalog
      .current()
      .catalog.models
      .filter((model) => model.callable && modalities.has(model.outputModality) && isModelAllowed(key, model.id))
      .map(modelObject);
    return context.json({ object: 'list', data }, 200, { 'x-request-id': requestId });
  } catch (error) {
    return errorResponse(error, requestId);
  }
}

/** `GET /models/{id}`: one model, by public id or alias. */
export async function handleRetrieveModel(context: GatewayContext, services: GatewayServices): Promise<Response> {
  const requestId = context.get('requestId');
  try {
    const key = await services.authenticator.authenticate(context.req.raw.headers, services.config.server.discovery_requires_key);
    if (services.config.server.discovery_requires_key) assertEndpointAllowed(key, 'models');
    // Hono has already percent-decoded the parameter (leaving malformed escapes as sent); decoding
    // again would turn a literal '%' in a name into a URIError and a 500.
    const name = context.req.param('id') ?? '';
    const model = services.catalog.current().catalog.find(name);
    if (model === undefined || !model.callable || !isModelAllowed(key, model.id)) {
      throw new GatewayError('model_not_found', `The model '${name}' does not exist.`, { param: 'model' });
    }
    return context.json(modelObject(model), 200, { 'x-request-id': requestId });
  } catch (error) {
    return errorResponse(error, requestId);
  }
}

function parseModalities(value: string | undefined): Set<OutputModality> {
  if (value === undefined || value === '') return new Set(['text']);
  const requested = value.split(',').map((item) => item.trim());
  for (const item of requested) {
    if (!(modalityChoices as readonly string[]).includes(item)) {
      throw new GatewayError('invalid_field', `Invalid output_modalities '${item}': allowed values are ${modalityChoices.join(', ')}.`, {
        param: 'output_modalities',
      });
    }
  }
  if (requested.includes('all')) return new Set(['text', 'image', 'video']);
  return new Set(requested as OutputModality[]);
}

function modelObject(model: CatalogModel): Record<string, unknown> {
  return { id: model.id, object: 'model', created: model.created, owned_by: model.ownedBy, output_modality: model.outputModality };
}
