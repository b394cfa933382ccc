import type { IrRequest } from '../../ir/index.js';
import type { GenerateContentRequest } from './wire/generate-content-request.js';
import type { UpstreamHttpRequest, UpstreamTarget } from '../provider-adapter.js';
import { buildGeminiConversation } from './gemini-contents.js';
import { customToolNames } from './gemini-custom-tools.js';
import { geminiGenerateUrl, geminiHeaders } from './gemini-endpoint.js';
import { buildGenerationConfig } from './gemini-generation-config.js';
import { buildGeminiTools } from './gemini-tools.js';

/**
 * IR → Gemini `generateContent` body. `user` and `metadata` have no Gemini Developer API field
 * and are not sent; `extensions.gemini` (e.g. `safetySettings`, `cachedContent`) is merged into
 * the body as the provider's own fields.
 */
export function buildGeminiBody(request: IrRequest): GenerateContentRequest {
  const conversation = buildGeminiConversation(request.messages, customToolNames(request.tools));
  const { tools, toolConfig } = buildGeminiTools(request);
  const generationConfig = buildGenerationConfig(request);
  return {
    ...request.extensions.gemini,
    contents: conversation.contents,
    ...(conversation.systemParts.length > 0 ? { systemInstruction: { parts: conversation.systemParts } } : {}),
    ...(tools === undefined ? {} : { tools }),
    ...(toolConfig === undefined ? {} : { toolConfig }),
    ...(generationConfig === undefined ? {} : { generationConfig }),
  };
}

export function buildGeminiRequest(request: IrRequest, target: UpstreamTarget): UpstreamHttpRequest {
  return {
    url: geminiGenerateUrl(target, request.stream),
    headers: geminiHeaders(target),
    body: JSON.stringify(buildGeminiBody(request)),
  };
}
