import type { ImageGeneration, TextProviderAdapter, UpstreamTarget } from '../provider-adapter.js';
import { buildGeminiBody } from '../gemini/build-request.js';
import { decodeGeminiError } from '../gemini/decode-error.js';
import { decodeGeminiResponse } from '../gemini/decode-response.js';
import { geminiModelUrl } from '../gemini/gemini-endpoint.js';
import { geminiImageGeneration } from '../gemini/images/gemini-image-generation.js';
import { createGeminiStreamDecoder } from '../gemini/stream-decoder.js';
import { vertexApiRoot } from './vertex-api-root.js';
import { authorizeVertex, forgetRefusedVertexToken } from './vertex-authorization.js';
import { vertexGenerateUrl, vertexModelUrl } from './vertex-endpoint.js';
import { vertexVeoGeneration } from './vertex-veo.js';

/** Operator headers after the content type; the credential is added by `authorize`, never configured. */
function vertexHeaders(target: UpstreamTarget): Record<string, string> {
  return { 'content-type': 'application/json', ...target.headers };
}

/**
 * Imagen and Gemini's image models on Vertex: the Developer API's bodies and answers (the
 * recorded Vertex `:predict` and `generateContent` answers decode the same), at Vertex's address.
 */
const vertexImageGeneration: ImageGeneration = {
  edits: geminiImageGeneration.edits,
  buildRequest(request, target) {
    const built = geminiImageGeneration.buildRequest(request, target);
    const url = built.url.replace(geminiModelUrl(target), vertexModelUrl(target, 'google', target.model.replace(/^models\//, '')));
    return { url, headers: vertexHeaders(target), body: built.body };
  },
  decodeResponse: geminiImageGeneration.decodeResponse,
};

/**
 * Gemini, Imagen and Veo on Vertex AI: the body, answers and stream of the Gemini adapter, at the project's
 * regional model path, with an OAuth2 bearer instead of an API key. Every turn carries its `role`
 * (which Vertex requires), as the Gemini body already does.
 */
export const vertexGeminiAdapter: TextProviderAdapter = {
  kind: 'vertex',
  apiRoot: vertexApiRoot,
  upstreamHeaders: (target) => vertexHeaders(target),
  authorize: (_call, target) => authorizeVertex(target),
  decodeError: decodeGeminiError,
  forgetAuthorization: forgetRefusedVertexToken,
  text: {
    nativeFormats: [],
    buildRequest: (request, target) => ({
      url: vertexGenerateUrl(target, request.stream),
      headers: vertexHeaders(target),
      body: JSON.stringify(buildGeminiBody(request)),
    }),
    decodeResponse: decodeGeminiResponse,
    createStreamDecoder: createGeminiStreamDecoder,
    // No client speaks Gemini, so nothing is passed through; the URL keeps the contract.
    passthroughUrl: (_format, target, stream) => vertexGenerateUrl(target, stream),
  },
  images: vertexImageGeneration,
  videos: vertexVeoGeneration,
};
