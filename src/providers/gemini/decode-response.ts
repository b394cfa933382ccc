import { GatewayError } from '../../errors/gateway-error.js';
import type { FinishInfo, IrRequest, IrResponse } from '../../ir/index.js';
import {
  finishFromBlockReason,
  finishFromGemini,
} from './wire/gemini-finish-reason.js';
import { usageFromGemini } from './wire/gemini-usage.js';
import {
  generateContentResponseSchema,
  type GenerateContentResponse,
} from './wire/generate-content-response.js';
import { collectOutputParts } from './collect-output-parts.js';
import { createCallIdMinter, fallbackResponseId } from './gemini-call-ids.js';
import { customToolNames } from './gemini-custom-tools.js';
import { createPartAssembler } from './gemini-part-assembler.js';
import { responseCreatedSeconds } from './gemini-response-time.js';

/** A whole `generateContent` body → IR. Only the first candidate is read (one is requested). */
export function decodeGeminiResponse(body: unknown, request: IrRequest): IrResponse {
  const parsed = generateContentResponseSchema.safeParse(body);
  if (!parsed.success) {
    throw new GatewayError('upstream_invalid_response', 'The Gemini upstream returned a response the gateway cannot read.', {
      cause: parsed.error,
    });
  }
  const response = parsed.data;
  const id = response.responseId || fallbackResponseId();
  const assembler = createPartAssembler({
    mintCallId: createCallIdMinter(id),
    customTools: customToolNames(request.tools),
  });
  const candidate = response.candidates?.[0];
  const events = [...assembler.accept(candidate?.content?.parts ?? []), ...assembler.closeAll()];
  const extensions = responseExtensions(response);
  return {
    id,
    model: response.modelVersion ?? request.model,
    created: responseCreatedSeconds(response.createTime),
    content: collectOutputParts(events),
    finish: finishOf(response, assembler.hasToolCalls()),
    usage: usageFromGemini(response.usageMetadata),
    ...(extensions === undefined ? {} : { extensions: { gemini: extensions } }),
  };
}

function finishOf(response: GenerateContentResponse, hasToolCalls: boolean): FinishInfo {
  const raw = response.candidates?.[0]?.finishReason;
  if (raw) return finishFromGemini(raw, hasToolCalls);
  const blockReason = response.promptFeedback?.blockReason;
  if (blockReason) return finishFromBlockReason(blockReason);
  return { reason: hasToolCalls ? 'tool-calls' : 'other' };
}

/** Response data with no neutral meaning, kept so nothing the upstream said is lost. */
function responseExtensions(response: GenerateContentResponse): Record<string, unknown> | undefined {
  const candidate = response.candidates?.[0];
  const extensions: Record<string, unknown> = {};
  if (candidate?.finishMessage) extensions.finishMessage = candidate.finishMessage;
  if (candidate?.safetyRatings !== undefined) extensions.safetyRatings = candidate.safetyRatings;
  if (candidate?.citationMetadata !== undefined) extensions.citationMetadata = candidate.citationMetadata;
  if (candidate?.groundingMetadata !== undefined) extensions.groundingMetadata = candidate.groundingMetadata;
  if (response.promptFeedback) extensions.promptFeedback = response.promptFeedback;
  return Object.keys(extensions).length === 0 ? undefined : extensions;
}
