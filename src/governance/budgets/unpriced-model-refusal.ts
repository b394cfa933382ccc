import { GatewayError } from '../../errors/gateway-error.js';

/**
 * The 402 for a key with a budget calling a model with no price: what the call costs is unknown,
 * so the budget could not be kept; it is not served free either.
 */
export function unpricedModelRefusal(modelId: string): GatewayError {
  return new GatewayError(
    'model_unpriced',
    `The model '${modelId}' has no price, so it cannot be charged to this API key's budget: keys with a budget are refused it. The operator can give it a price, or serve it free with price: { free: true }.`,
  );
}
