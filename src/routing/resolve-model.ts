import type { CatalogModel, ModelCatalog, OutputModality } from '../catalog/model-catalog.js';
import { GatewayError } from '../errors/gateway-error.js';
import { assertModelAllowed } from '../keys/key-scope.js';
import type { ApiKeyRecord } from '../keys/api-key.js';

/**
 * The model a client named (public id or alias), checked for what the endpoint serves, for the
 * key's model scope, and for at least one route that can be called.
 */
export function resolveModel(catalog: ModelCatalog, name: string, modality: OutputModality, key: ApiKeyRecord | undefined): CatalogModel {
  const model = catalog.find(name);
  if (model === undefined || model.outputModality !== modality) {
    throw new GatewayError('model_not_found', `The model '${name}' does not exist or is not ${articleFor(modality)} ${modality} model.`, { param: 'model' });
  }
  assertModelAllowed(key, model.id);
  if (!model.callable || model.routes.length === 0) {
    throw new GatewayError('no_route', `The model '${name}' has no upstream with credentials configured.`, { param: 'model' });
  }
  return model;
}

function articleFor(modality: OutputModality): string {
  return modality === 'image' ? 'an' : 'a';
}
