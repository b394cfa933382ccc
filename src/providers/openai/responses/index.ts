import type { FormatName } from '../../../ir/format-name.js';
import { decodeChatError } from '../chat/decode-error.js';
import { openAIApiRoot } from '../chat/index.js';
import { createOpenAIImageGeneration } from '../images/index.js';
import { openAIVideoGeneration } from '../videos/index.js';
import type { TextProviderAdapter, UpstreamTarget } from '../../provider-adapter.js';
import { buildResponsesRequest } from './build-request.js';
import { decodeResponsesResponse } from './decode-response.js';
import { createResponsesStreamDecoder } from './stream-decoder.js';
import { responsesUpstreamHeaders } from './upstream-headers.js';

/**
 * OpenAI's Responses API as an upstream. Its HTTP errors have the same shape and headers as Chat
 * Completions errors (same vendor, same envelope), so the chat adapter's error decoder is reused.
 */
export const openAIResponsesAdapter: TextProviderAdapter = {
  kind: 'openai',
  apiRoot: openAIApiRoot,
  upstreamHeaders: (target) => responsesUpstreamHeaders(target),
  decodeError: decodeChatError,
  text: {
    nativeFormats: ['responses'],
    buildRequest: (request, target) => buildResponsesRequest(request, target),
    decodeResponse: (body) => decodeResponsesResponse(body),
    createStreamDecoder: () => createResponsesStreamDecoder(),
    passthroughUrl: (format: FormatName, target: UpstreamTarget) =>
      format === 'chat' ? `${target.baseUrl}/chat/completions` : `${target.baseUrl}/responses`,
  },
  images: createOpenAIImageGeneration('openai'),
  videos: openAIVideoGeneration,
};
