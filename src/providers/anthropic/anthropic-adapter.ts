import { GatewayError } from '../../errors/gateway-error.js';
import { apiRoot } from '../api-root.js';
import type { TextProviderAdapter } from '../provider-adapter.js';
import { buildAnthropicRequest } from './build-request.js';
import { anthropicTokenCounting } from './count-tokens.js';
import { decodeAnthropicError } from './decode-error.js';
import { decodeMessagesResponse } from './decode-response.js';
import { createAnthropicStreamDecoder } from './stream-decoder.js';
import { anthropicHeaders, messagesUrl } from './upstream-headers.js';

/** Egress adapter for the Anthropic Messages API (`POST /v1/messages`). */
export const anthropicAdapter: TextProviderAdapter = {
  kind: 'anthropic',
  // The SDK adds `/v1` itself, so a root pasted with it is tolerated.
  apiRoot: apiRoot({ defaultBaseUrl: 'https://api.anthropic.com', pathOnOrigin: '', redundantSuffix: /\/v1$/, credentialRequired: true }),
  upstreamHeaders: anthropicHeaders,
  decodeError: decodeAnthropicError,
  text: {
    nativeFormats: ['messages'],
    buildRequest: buildAnthropicRequest,
    decodeResponse: decodeMessagesResponse,
    createStreamDecoder: createAnthropicStreamDecoder,
    passthroughUrl(format, target) {
      if (format !== 'messages') {
        throw new GatewayError('internal_error', `The Anthropic upstream cannot pass ${format} requests through.`);
      }
      return messagesUrl(target);
    },
  },
  tokenCounting: anthropicTokenCounting,
};
