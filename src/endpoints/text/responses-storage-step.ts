import { captureResponseObject } from '../../stored-responses/capture-response-object.js';
import { expandPreviousResponse, storeResponse } from '../../stored-responses/stored-conversation.js';
import type { GatewayServices } from '../gateway-services.js';
import type { PrepareBody } from './text-endpoint.js';

/**
 * The Responses endpoint's own step: `previous_response_id` is resolved from the gateway's store
 * before routing, and unless `store: false` the answer is kept once it has been delivered.
 */
export function responsesStorageStep(services: GatewayServices): PrepareBody {
  return async (body, key) => {
    const keyId = key?.id ?? null;
    const expanded = await expandPreviousResponse(services.storage.responses, body.parsedBody, body.rawBody, keyId);
    if (expanded.parsedBody.store === false) return expanded;
    return {
      ...expanded,
      deliver(outcome) {
        const watched = captureResponseObject(outcome);
        void watched.response
          .then(async (response) => {
            if (response === undefined) return;
            const stored = await storeResponse(services.storage.responses, response, expanded.conversationInput, keyId);
            // The upstream gave this key an id it had already used: its first response stays.
            if (!stored && typeof response.id === 'string') services.logger.warn({ responseId: response.id, keyId }, 'a response was not stored: its key already has one under the same upstream id');
          })
          .catch((error: unknown) => services.logger.error({ err: error }, 'storing a response failed'));
        return watched.outcome;
      },
    };
  };
}
