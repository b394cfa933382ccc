import type { FormatName } from '../../formats/client-format.js';
import { decodeChatError } from '../openai-chat/decode-error.js';
import type { ProviderAdapter, UpstreamTarget } from '../provider-adapter.js';
import { buildResponsesRequest } from './build-request.js';
import { decodeResponsesResponse } from './decode-response.js';
import { createResponsesStreamDecoder } from './stream-decoder.js';
import { responsesUpstreamHeaders } from './upstream-headers.js';

/**
 * OpenAI's Responses API as an upstream. Its HTTP errors have the same shape and headers as Chat
 * Completions errors (same vendor, same envelope), so the chat adapter's error decoder is reused.
 */
export const openAIResponsesAdapter: ProviderAdapter = {
  kind: 'openai',
  nativeFormats: ['responses'],
  buildRequest: (request, target) => buildResponsesRequest(request, target),
  decodeResponse: (body) => decodeResponsesResponse(body),
  createStreamDecoder: () => createResponsesStreamDecoder(),
  decodeError: decodeChatError,
  passthroughUrl: (format: FormatName, target: UpstreamTarget) =>
    format === 'chat' ? `${target.baseUrl}/chat/completions` : `${target.baseUrl}/responses`,
  upstreamHeaders: (target) => responsesUpstreamHeaders(target),
};
