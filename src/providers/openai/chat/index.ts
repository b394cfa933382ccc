import type { FormatName } from '../../../ir/format-name.js';
import { apiRoot } from '../../api-root.js';
import { createOpenAIImageGeneration } from '../images/index.js';
import { openAIVideoGeneration } from '../videos/index.js';
import type { TextProviderAdapter, UpstreamTarget } from '../../provider-adapter.js';
import { buildChatRequest } from './build-request.js';
import { decodeChatError } from './decode-error.js';
import { decodeChatResponse } from './decode-response.js';
import { createChatStreamDecoder } from './stream-decoder.js';
import { chatUpstreamHeaders } from './upstream-headers.js';

/** OpenAI's own API; its SDK takes the root with `/v1`. */
export const openAIApiRoot = apiRoot({ defaultBaseUrl: 'https://api.openai.com/v1', pathOnOrigin: '/v1', credentialRequired: true });

/** OpenAI-compatible servers run where the operator runs them, often without a credential. */
const compatibleApiRoot = apiRoot({ pathOnOrigin: '/v1', credentialRequired: false });

/** OpenAI Chat Completions upstreams: OpenAI itself and every server that speaks its chat API. */
export function createOpenAIChatAdapter(kind: 'openai' | 'openai-compatible'): TextProviderAdapter {
  return {
    kind,
    apiRoot: kind === 'openai' ? openAIApiRoot : compatibleApiRoot,
    upstreamHeaders: (target) => chatUpstreamHeaders(target),
    decodeError: decodeChatError,
    text: {
      nativeFormats: ['chat'],
      buildRequest: (request, target) => buildChatRequest(request, target, kind),
      decodeResponse: (body) => decodeChatResponse(body),
      createStreamDecoder: () => createChatStreamDecoder(),
      passthroughUrl: (format: FormatName, target: UpstreamTarget) =>
        format === 'responses' ? `${target.baseUrl}/responses` : `${target.baseUrl}/chat/completions`,
    },
    images: createOpenAIImageGeneration(kind),
    videos: openAIVideoGeneration,
  };
}
