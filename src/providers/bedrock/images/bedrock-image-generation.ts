import { GatewayError } from '../../../errors/gateway-error.js';
import { isRecord } from '../../../json/json-value.js';
import type { ImageGeneration } from '../../provider-adapter.js';
import { bedrockImageFamily } from './bedrock-image-model.js';
import { buildNovaCanvasRequest } from './nova-canvas-request.js';
import { decodeNovaCanvasResponse } from './nova-canvas-response.js';
import { buildStabilityRequest } from './stability-request.js';
import { decodeStabilityResponse } from './stability-response.js';

/**
 * Image generation on Bedrock through InvokeModel, in each model family's own body: Nova Canvas's
 * or Stability's, chosen by the route's model id. Generation only: editing is not offered.
 */
export const bedrockImageGeneration: ImageGeneration = {
  edits: false,
  buildRequest(request, target) {
    const family = bedrockImageFamily(target.model);
    if (family === 'nova-canvas') return buildNovaCanvasRequest(request, target);
    if (family === 'stability') return buildStabilityRequest(request, target);
    throw new GatewayError('internal_error', `The Bedrock model ${target.model} is not an image model the gateway speaks to.`);
  },
  // The decoder is given no target: Stability's answers always carry `finish_reasons` (and
  // `seeds`), Nova Canvas's never do.
  decodeResponse: (body, request) =>
    isRecord(body) && ('finish_reasons' in body || 'seeds' in body) ? decodeStabilityResponse(body, request) : decodeNovaCanvasResponse(body, request),
};
