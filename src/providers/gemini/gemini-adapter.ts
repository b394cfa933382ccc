import { apiRoot } from '../api-root.js';
import type { TextProviderAdapter } from '../provider-adapter.js';
import { buildGeminiRequest } from './build-request.js';
import { decodeGeminiError } from './decode-error.js';
import { decodeGeminiResponse } from './decode-response.js';
import { geminiGenerateUrl, geminiHeaders } from './gemini-endpoint.js';
import { createGeminiStreamDecoder } from './stream-decoder.js';
import { geminiImageGeneration } from './images/gemini-image-generation.js';
import { veoVideoGeneration } from './videos/veo-video-generation.js';

/**
 * Google Gemini `generateContent` / `streamGenerateContent`. No client format speaks Gemini, so
 * every call is translated through the IR and nothing is passed through.
 */
export const geminiAdapter: TextProviderAdapter = {
  kind: 'gemini',
  // The SDK adds the API version itself, so a root pasted with one is tolerated.
  apiRoot: apiRoot({
    defaultBaseUrl: 'https://generativelanguage.googleapis.com',
    pathOnOrigin: '',
    redundantSuffix: /\/v1(beta|alpha)?$/,
    credentialRequired: true,
  }),
  upstreamHeaders: (target) => geminiHeaders(target),
  decodeError: decodeGeminiError,
  text: {
    nativeFormats: [],
    buildRequest: (request, target) => buildGeminiRequest(request, target),
    decodeResponse: decodeGeminiResponse,
    createStreamDecoder: createGeminiStreamDecoder,
    // Never called (nativeFormats is empty, so no client is passed through); answers the
    // non-streaming generateContent URL so the contract holds if it ever is.
    passthroughUrl: (_format, target) => geminiGenerateUrl(target, false),
  },
  images: geminiImageGeneration,
  videos: veoVideoGeneration,
};
