import { GatewayError } from '../errors/gateway-error.js';
import type { ApiKeyRecord } from './api-key.js';
import type { EndpointFamily } from './endpoint-family.js';

/**
 * Refuses a key that may not use an endpoint family (403). Admin keys may use every one
 * (docs/api.md, "Authentication").
 */
export function assertEndpointAllowed(key: ApiKeyRecord | undefined, family: EndpointFamily): void {
  if (key === undefined || key.admin || key.scopes.endpoints === null) return;
  if (!key.scopes.endpoints.includes(family)) {
    throw new GatewayError('endpoint_not_permitted', `This API key may not use the ${family} endpoints.`);
  }
}

/** Whether a key may call a model (by its public id). Admin keys may call every one. */
export function isModelAllowed(key: ApiKeyRecord | undefined, modelId: string): boolean {
  return key === undefined || key.admin || key.scopes.models === null || key.scopes.models.includes(modelId);
}

/** Refuses a key whose model allow-list lacks the model (403). */
export function assertModelAllowed(key: ApiKeyRecord | undefined, modelId: string): void {
  if (!isModelAllowed(key, modelId)) {
    throw new GatewayError('model_not_permitted', `This API key may not use the model '${modelId}'.`, { param: 'model' });
  }
}
