import { imageModelObject } from '../../catalog/publish/image-model-object.js';
import { videoModelObject } from '../../catalog/publish/video-model-object.js';
import { errorResponse } from '../error-response.js';
import type { GatewayContext } from '../exchange.js';
import type { GatewayServices } from '../gateway-services.js';
import { discoveryRequest } from './discovery-request.js';

/** `GET /v1/images/models`: image models with their rules, legacy aliases and prices. */
export async function handleImageModels(context: GatewayContext, services: GatewayServices): Promise<Response> {
  const requestId = context.get('requestId');
  try {
    const discovery = await discoveryRequest(context, services);
    const now = new Date();
    const data = discovery.visible(new Set(['image'])).map((model) => imageModelObject(model, now));
    return context.json({ object: 'list', data }, 200, { 'x-request-id': requestId });
  } catch (error) {
    return errorResponse(error, requestId);
  }
}

/** `GET /v1/videos/models`: video models with only the variants they sell; a model that sells none is left out. */
export async function handleVideoModels(context: GatewayContext, services: GatewayServices): Promise<Response> {
  const requestId = context.get('requestId');
  try {
    const discovery = await discoveryRequest(context, services);
    const now = new Date();
    const data = discovery.visible(new Set(['video'])).flatMap((model) => videoModelObject(model, now) ?? []);
    return context.json({ object: 'list', data }, 200, { 'x-request-id': requestId });
  } catch (error) {
    return errorResponse(error, requestId);
  }
}
