import type { CatalogModel, ModelCatalog, OutputModality } from '../../catalog/model-catalog.js';
import { GatewayError } from '../../errors/gateway-error.js';
import { assertEndpointAllowed, isModelAllowed } from '../../keys/key-scope.js';
import type { ApiKeyRecord } from '../../keys/api-key.js';
import { errorResponse } from '../../http/error-response.js';
import type { GatewayContext } from '../../http/exchange.js';
import type { GatewayServices } from '../gateway-services.js';

/** What a discovery endpoint lists: the catalog of this call and the models its caller may see. */
export interface DiscoveryRequest {
  readonly catalog: ModelCatalog;
  readonly key: ApiKeyRecord | undefined;
  /** Models that can be sold and that the key (if any) may call. */
  visible(modalities: ReadonlySet<OutputModality>): CatalogModel[];
  /** A model by id, alias or legacy alias, when the caller may see it; a 404 otherwise. */
  named(name: string): CatalogModel;
}

/**
 * Discovery is public unless the operator says otherwise (prices are published); a key that is
 * presented still narrows the lists to what it may call.
 */
export async function discoveryRequest(context: GatewayContext, services: GatewayServices): Promise<DiscoveryRequest> {
  const requiresKey = services.config.server.discovery_requires_key;
  const key = await services.authenticator.authenticate(context.req.raw.headers, requiresKey);
  if (requiresKey) assertEndpointAllowed(key, 'models');
  // One snapshot for the whole call: a reload while it runs changes nothing it lists.
  const catalog = services.catalog.current().catalog;
  const mayCall = (model: CatalogModel): boolean => model.callable && isModelAllowed(key, model.id);
  return {
    catalog,
    key,
    visible: (modalities) => catalog.models.filter((model) => modalities.has(model.outputModality) && mayCall(model)),
    named(name) {
      const model = catalog.find(name);
      if (model === undefined || !mayCall(model)) throw new GatewayError('model_not_found', `The model '${name}' does not exist.`, { param: 'model' });
      return model;
    },
  };
}

const modalityChoices = ['text', 'image', 'video', 'all'] as const;

/** `output_modalities`: a comma-separated list of text, image, video or all; anything else is a 400 naming the choices. */
export function parseModalities(value: string | undefined, fallback: readonly OutputModality[]): Set<OutputModality> {
  if (value === undefined || value === '') return new Set(fallback);
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

/** Answers a discovery call with what `produce` makes of it, or the error in the OpenAI shape. */
export async function discoveryAnswer(
  context: GatewayContext,
  services: GatewayServices,
  produce: (discovery: DiscoveryRequest, now: Date) => unknown,
): Promise<Response> {
  const requestId = context.get('requestId');
  try {
    const discovery = await discoveryRequest(context, services);
    return context.json(produce(discovery, new Date()) as object, 200, { 'x-request-id': requestId });
  } catch (error) {
    return errorResponse(error, requestId);
  }
}
