import type { FormatName } from '../../formats/client-format.js';
import type { ProviderAdapter, UpstreamTarget } from '../provider-adapter.js';
import { buildChatRequest } from './build-request.js';
import { decodeChatError } from './decode-error.js';
import { decodeChatResponse } from './decode-response.js';
import { createChatStreamDecoder } from './stream-decoder.js';
import { chatUpstreamHeaders } from './upstream-headers.js';

/** OpenAI Chat Completions upstreams: OpenAI itself and every server that speaks its chat API. */
export function createOpenAIChatAdapter(kind: 'openai' | 'openai-compatible'): ProviderAdapter {
  return {
    kind,
    nativeFormats: ['chat'],
    buildRequest: (request, target) => buildChatRequest(request, target, kind),
    decodeResponse: (body) => decodeChatResponse(body),
    createStreamDecoder: () => createChatStreamDecoder(),
    decodeError: decodeChatError,
    passthroughUrl: (format: FormatName, target: UpstreamTarget) =>
      format === 'responses' ? `${target.baseUrl}/responses` : `${target.baseUrl}/chat/completions`,
    upstreamHeaders: (target) => chatUpstreamHeaders(target),
  };
}
