import type { FormatName } from '../../../ir/format-name.js';
import { apiRoot } from '../../api-root.js';
import type { ImageGeneration, TextProviderAdapter, UpstreamTarget } from '../../provider-adapter.js';
import { buildChatRequest } from '../chat/build-request.js';
import { decodeChatResponse } from '../chat/decode-response.js';
import { createChatStreamDecoder } from '../chat/stream-decoder.js';
import { createOpenAIImageGeneration } from '../images/index.js';
import { decodeOpenAIError } from '../shared/decode-error.js';
import { openAIUpstreamHeaders } from '../shared/upstream-headers.js';
import { azureCall, azureHeaders } from './azure-call.js';
import { azureUrl } from './azure-url.js';
import { createEntraAuthorization } from './entra-token.js';

/**
 * Azure's roots are the operator's resource: `https://{resource}.openai.azure.com/openai/v1` (the
 * v1 API) or the resource's origin (the classic form, with an API version). The simulator serves
 * the v1 API below its origin.
 */
const azureApiRoot = apiRoot({ pathOnOrigin: '/openai/v1', credentialRequired: true });

const openAIImages = createOpenAIImageGeneration('openai');

const azureImages: ImageGeneration = {
  ...openAIImages,
  buildRequest: (request, target) => azureCall(openAIImages.buildRequest(request, target), target),
};

function passthroughUrl(format: FormatName, target: UpstreamTarget): string {
  return azureUrl(target, format === 'responses' ? 'responses' : 'chat/completions');
}

/**
 * Azure OpenAI: OpenAI's chat completions, Responses and Images APIs on an Azure resource. Chat and
 * Responses clients pass through; other clients are translated to chat completions, which every
 * deployment serves. The credential is the `api-key` header, or without one a Microsoft Entra ID
 * bearer token (DefaultAzureCredential), fetched before the call and renewed before it expires.
 *
 * Azure's content filter answers in OpenAI's shapes: a filtered prompt is a 400 with code
 * `content_filter`, a filtered answer a `content_filter` finish, both read by OpenAI's decoders.
 */
export function createAzureAdapter(authorizeWithEntra = createEntraAuthorization()): TextProviderAdapter {
  return {
    kind: 'azure',
    apiRoot: azureApiRoot,
    upstreamHeaders: (target) => azureHeaders(openAIUpstreamHeaders(target), target),
    authorize: (_call, target) => authorizeWithEntra(target),
    decodeError: decodeOpenAIError,
    text: {
      nativeFormats: ['chat', 'responses'],
      buildRequest: (request, target) => azureCall(buildChatRequest(request, target, 'openai'), target),
      decodeResponse: (body) => decodeChatResponse(body),
      createStreamDecoder: () => createChatStreamDecoder(),
      passthroughUrl,
    },
    images: azureImages,
  };
}
