import { GatewayError } from '../../errors/gateway-error.js';
import type { ProviderAdapter } from '../provider-adapter.js';
import { buildAnthropicRequest } from './build-request.js';
import { decodeAnthropicError } from './decode-error.js';
import { decodeMessagesResponse } from './decode-response.js';
import { createAnthropicStreamDecoder } from './stream-decoder.js';
import { anthropicHeaders, messagesUrl } from './upstream-headers.js';

/** Egress adapter for the Anthropic Messages API (`POST /v1/messages`). */
export const anthropicAdapter: ProviderAdapter = {
  kind: 'anthropic',
  nativeFormats: ['messages'],
  buildRequest: buildAnthropicRequest,
  decodeResponse: decodeMessagesResponse,
  createStreamDecoder: createAnthropicStreamDecoder,
  decodeError: decodeAnthropicError,
  passthroughUrl(format, target) {
    if (format !== 'messages') {
      throw new GatewayError('internal_error', `The Anthropic upstream cannot pass ${format} requests through.`);
    }
    return messagesUrl(target);
  },
  upstreamHeaders: anthropicHeaders,
};
