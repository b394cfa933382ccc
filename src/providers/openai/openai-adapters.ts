import type { FormatName } from '../../ir/format-name.js';
import type { TextProviderAdapter, UpstreamTarget } from '../provider-adapter.js';
import { buildChatRequest } from './chat/build-request.js';
import { decodeChatResponse } from './chat/decode-response.js';
import { createChatStreamDecoder } from './chat/stream-decoder.js';
import { createOpenAIImageGeneration } from './images/index.js';
import { buildResponsesRequest } from './responses/build-request.js';
import { decodeResponsesResponse } from './responses/decode-response.js';
import { createResponsesStreamDecoder } from './responses/stream-decoder.js';
import { compatibleApiRoot, openAIApiRoot } from './shared/api-roots.js';
import { decodeOpenAIError } from './shared/decode-error.js';
import { openAIUpstreamHeaders } from './shared/upstream-headers.js';
import { openAIVideoGeneration } from './videos/index.js';

/** Where a passed-through call goes: the path of the client's own format on the upstream. */
function passthroughUrl(format: FormatName, target: UpstreamTarget): string {
  return format === 'responses' ? `${target.baseUrl}/responses` : `${target.baseUrl}/chat/completions`;
}

/** OpenAI Chat Completions upstreams: OpenAI itself and every server that speaks its chat API. */
export function createOpenAIChatAdapter(kind: 'openai' | 'openai-compatible'): TextProviderAdapter {
  return {
    kind,
    apiRoot: kind === 'openai' ? openAIApiRoot : compatibleApiRoot,
    upstreamHeaders: openAIUpstreamHeaders,
    decodeError: decodeOpenAIError,
    text: {
      nativeFormats: ['chat'],
      buildRequest: (request, target) => buildChatRequest(request, target, kind),
      decodeResponse: (body) => decodeChatResponse(body),
      createStreamDecoder: () => createChatStreamDecoder(),
      passthroughUrl,
    },
    images: createOpenAIImageGeneration(kind),
    videos: openAIVideoGeneration,
  };
}

/**
 * OpenAI's Responses API as an upstream. Its HTTP errors have the same shape and headers as Chat
 * Completions errors (same vendor, same envelope), so both share one error decoder.
 */
export const openAIResponsesAdapter: TextProviderAdapter = {
  kind: 'openai',
  apiRoot: openAIApiRoot,
  upstreamHeaders: openAIUpstreamHeaders,
  decodeError: decodeOpenAIError,
  text: {
    nativeFormats: ['responses'],
    buildRequest: (request, target) => buildResponsesRequest(request, target),
    decodeResponse: (body) => decodeResponsesResponse(body),
    createStreamDecoder: () => createResponsesStreamDecoder(),
    passthroughUrl,
  },
  images: createOpenAIImageGeneration('openai'),
  videos: openAIVideoGeneration,
};
