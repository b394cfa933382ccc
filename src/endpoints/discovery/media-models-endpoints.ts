import { imageModelObject } from '../../catalog/publish/image-model-object.js';
import { videoModelObject } from '../../catalog/publish/video-model-object.js';
import type { GatewayContext } from '../../http/exchange.js';
import type { GatewayServices } from '../gateway-services.js';
import { discoveryAnswer } from './discovery-request.js';

/** `GET /v1/images/models`: image models with their rules, legacy aliases and prices. */
export function handleImageModels(context: GatewayContext, services: GatewayServices): Promise<Response> {
  return discoveryAnswer(context, services, (discovery, now) => ({
    object: 'list',
    data: discovery.visible(new Set(['image'])).map((model) => imageModelObject(model, now)),
  }));
}

/** `GET /v1/videos/models`: video models with only the variants they sell; a model that sells none is left out. */
export function handleVideoModels(context: GatewayContext, services: GatewayServices): Promise<Response> {
  return discoveryAnswer(context, services, (discovery, now) => ({
    object: 'list',
    data: discovery.visible(new Set(['video'])).flatMap((model) => videoModelObject(model, now) ?? []),
  }));
}
