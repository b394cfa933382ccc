import { pricingRecord } from '../../catalog/publish/pricing-record.js';
import { errorResponse } from '../error-response.js';
import type { GatewayContext } from '../exchange.js';
import type { GatewayServices } from '../gateway-services.js';
import { discoveryRequest, parseModalities } from './discovery-request.js';

/**
 * `GET /v1/models/pricing`: the published prices of every model the caller may see, or of the one
 * `model` names (id, alias or legacy alias), with the prices scheduled to come.
 */
export async function handlePricing(context: GatewayContext, services: GatewayServices): Promise<Response> {
  const requestId = context.get('requestId');
  try {
    const discovery = await discoveryRequest(context, services);
    const modalities = parseModalities(context.req.query('output_modalities'), ['text', 'image', 'video']);
    const named = context.req.query('model');
    const models = named === undefined ? discovery.visible(modalities) : [discovery.named(named)].filter((model) => modalities.has(model.outputModality));
    const now = new Date();
    return context.json({ object: 'list', data: models.map((model) => pricingRecord(model, now)) }, 200, { 'x-request-id': requestId });
  } catch (error) {
    return errorResponse(error, requestId);
  }
}
