import { pricingRecord } from '../../catalog/publish/pricing-record.js';
import type { GatewayContext } from '../../http/exchange.js';
import type { GatewayServices } from '../gateway-services.js';
import { discoveryAnswer, parseModalities } from './discovery-request.js';

/**
 * `GET /v1/models/pricing`: the published prices of every model the caller may see, or of the one
 * `model` names (id, alias or legacy alias), with the prices scheduled to come.
 */
export function handlePricing(context: GatewayContext, services: GatewayServices): Promise<Response> {
  return discoveryAnswer(context, services, (discovery, now) => {
    const modalities = parseModalities(context.req.query('output_modalities'), ['text', 'image', 'video']);
    const named = context.req.query('model');
    const models = named === undefined ? discovery.visible(modalities) : [discovery.named(named)].filter((model) => modalities.has(model.outputModality));
    return { object: 'list', data: models.map((model) => pricingRecord(model, now)) };
  });
}
