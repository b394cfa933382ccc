import { GatewayError } from '../../errors/gateway-error.js';
import { isRecord, parseJson } from '../../json/json-value.js';
import type { ForwardedHeaders, TextProviderAdapter, UpstreamTarget } from '../provider-adapter.js';
import { buildMessagesBody } from '../anthropic/build-request.js';
import { anthropicTokenCounting } from '../anthropic/count-tokens.js';
import { decodeAnthropicError } from '../anthropic/decode-error.js';
import { decodeMessagesResponse } from '../anthropic/decode-response.js';
import { createAnthropicStreamDecoder } from '../anthropic/stream-decoder.js';
import { decodeGeminiError } from '../gemini/decode-error.js';
import { vertexApiRoot } from './vertex-api-root.js';
import { authorizeVertex, forgetRefusedVertexToken } from './vertex-authorization.js';
import { vertexClaudeCountUrl, vertexClaudeUrl } from './vertex-endpoint.js';

/** The Messages API version Vertex documents for Claude; the dated versions of current SDKs are refused there. */
export const vertexAnthropicVersion = 'vertex-2023-10-16';

/**
 * The client's `anthropic-beta` goes on as the header Vertex reads; `anthropic-version` does not,
 * since on Vertex the version is a body member.
 */
function claudeHeaders(target: UpstreamTarget, forwarded: ForwardedHeaders): Record<string, string> {
  const beta = Object.entries(forwarded).find(([name]) => name.toLowerCase() === 'anthropic-beta')?.[1];
  return { 'content-type': 'application/json', ...(beta === undefined || beta === '' ? {} : { 'anthropic-beta': beta }), ...target.headers };
}

/** A Messages body as Vertex takes it: the model is in the URL, the version in the body. */
function vertexMessagesBody(body: Readonly<Record<string, unknown>>): string {
  const { model: _model, anthropic_version: _version, ...rest } = body;
  return JSON.stringify({ anthropic_version: vertexAnthropicVersion, ...rest });
}

/**
 * Vertex answers in two shapes: Claude's own errors (`{type:"error",error:{type,message}}`) from
 * the model, and Google's (`{error:{code,message,status}}`) from Vertex itself (authentication,
 * quota, an unknown model or project).
 */
function decodeVertexClaudeError(status: number, bodyText: string, headers: Readonly<Record<string, string>>): GatewayError {
  const body = parseJson(bodyText);
  const googleShaped = isRecord(body) && isRecord(body.error) && typeof body.error.status === 'string';
  return googleShaped ? decodeGeminiError(status, bodyText, headers) : decodeAnthropicError(status, bodyText, headers);
}

/**
 * Claude on Vertex AI (Model Garden): the Messages API at `rawPredict` / `streamRawPredict`, so a
 * Messages client passes through with its body barely changed, and other clients are translated
 * as for Anthropic itself. Token counts at `count-tokens:rawPredict`, whose body names the model.
 */
export const vertexClaudeAdapter: TextProviderAdapter = {
  kind: 'vertex',
  apiRoot: vertexApiRoot,
  upstreamHeaders: claudeHeaders,
  authorize: (_call, target) => authorizeVertex(target),
  decodeError: decodeVertexClaudeError,
  forgetAuthorization: forgetRefusedVertexToken,
  text: {
    nativeFormats: ['messages'],
    buildRequest: (request, target, forwarded) => ({
      url: vertexClaudeUrl(target, request.stream),
      headers: claudeHeaders(target, forwarded),
      body: vertexMessagesBody(buildMessagesBody(request, target) as unknown as Record<string, unknown>),
    }),
    decodeResponse: decodeMessagesResponse,
    createStreamDecoder: createAnthropicStreamDecoder,
    passthroughUrl(format, target, stream) {
      if (format !== 'messages') throw new GatewayError('internal_error', `Claude on Vertex AI cannot pass ${format} requests through.`);
      return vertexClaudeUrl(target, stream);
    },
    passthroughBody: (_format, prepared) => {
      const body = parseJson(prepared);
      if (!isRecord(body)) throw new GatewayError('invalid_json', 'The request body is not a JSON object.');
      return vertexMessagesBody(body);
    },
  },
  tokenCounting: {
    ...anthropicTokenCounting,
    countUrl: vertexClaudeCountUrl,
    // The model stays in this body (the URL names none); the version is added as Anthropic's Vertex SDK adds it.
    countBody: (body) => {
      const parsed = parseJson(body);
      return isRecord(parsed) ? JSON.stringify({ anthropic_version: vertexAnthropicVersion, ...parsed }) : body;
    },
  },
};
