import type { ProviderAdapter } from '../provider-adapter.js';
import { buildGeminiRequest } from './build-gemini-request.js';
import { decodeGeminiError } from './decode-gemini-error.js';
import { decodeGeminiResponse } from './decode-gemini-response.js';
import { geminiGenerateUrl, geminiHeaders } from './gemini-endpoint.js';
import { createGeminiStreamDecoder } from './gemini-stream-decoder.js';

/**
 * Google Gemini `generateContent` / `streamGenerateContent`. No client format speaks Gemini, so
 * every call is translated through the IR and nothing is passed through.
 */
export const geminiAdapter: ProviderAdapter = {
  kind: 'gemini',
  nativeFormats: [],
  buildRequest: (request, target) => buildGeminiRequest(request, target),
  decodeResponse: decodeGeminiResponse,
  createStreamDecoder: createGeminiStreamDecoder,
  decodeError: decodeGeminiError,
  // Never called (nativeFormats is empty, so no client is passed through); answers the
  // non-streaming generateContent URL so the contract holds if it ever is.
  passthroughUrl: (_format, target) => geminiGenerateUrl(target, false),
  upstreamHeaders: (target) => geminiHeaders(target),
};
