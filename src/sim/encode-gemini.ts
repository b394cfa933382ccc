import type { JsonRecord } from '../json/json-value.js';
import { extractGemini } from './extract-gemini.js';
import type { SimReply } from './plan-reply.js';
import type { EncodeContext, SimEndpoint } from './sim-endpoint.js';

/** Gemini generateContent replies, shaped after the recorded `google/generate-content` fixtures. */
export const geminiEndpoint: SimEndpoint = {
  family: 'gemini',
  extract: (body, pathModel) => extractGemini(body, pathModel ?? 'sim-model'),
  encodeJson: generateContentResponse,
  encodeStream: (reply, context) => geminiChunks(reply, context).map((chunk) => ({ data: chunk })),
  headers: () => ({}),
};

function finishReason(reply: SimReply): string {
  return reply.finish === 'length' ? 'MAX_TOKENS' : 'STOP';
}

/** Thought tokens are reported apart from candidate tokens, as Gemini does. */
function usageMetadata(reply: SimReply, candidates: number, thoughts: number): JsonRecord {
  const prompt = reply.usage.inputTokens;
  return {
    promptTokenCount: prompt,
    candidatesTokenCount: candidates,
    totalTokenCount: prompt + candidates + thoughts,
    promptTokensDetails: [{ modality: 'TEXT', tokenCount: prompt }],
    ...(reply.reasoning === null ? {} : { thoughtsTokenCount: thoughts }),
  };
}

function finalCandidateTokens(reply: SimReply): number {
  return reply.usage.outputTokens - reply.usage.reasoningTokens;
}

function envelope(context: EncodeContext, parts: JsonRecord[], extra: JsonRecord, usage: JsonRecord): JsonRecord {
  return {
    candidates: [{ content: { parts, role: 'model' }, ...extra, index: 0 }],
    usageMetadata: usage,
    modelVersion: context.model,
    responseId: context.identity.tag,
  };
}

function generateContentResponse(reply: SimReply, context: EncodeContext): unknown {
  const parts: JsonRecord[] = [];
  if (reply.reasoning !== null) parts.push({ text: reply.reasoning.text, thought: true });
  if (reply.text !== null) {
    parts.push({
      text: reply.text.text,
      ...(reply.reasoning === null ? {} : { thoughtSignature: reply.reasoning.signature }),
    });
  }
  for (const call of reply.toolCalls) {
    parts.push({ functionCall: { name: call.name, args: call.arguments }, thoughtSignature: call.signature });
  }
  const usage = usageMetadata(reply, finalCandidateTokens(reply), reply.usage.reasoningTokens);
  return envelope(context, parts, { finishReason: finishReason(reply) }, usage);
}

/** Each chunk holds only new parts; usageMetadata is cumulative; the last chunk has finishReason. */
function geminiChunks(reply: SimReply, context: EncodeContext): JsonRecord[] {
  const chunks: Array<{ parts: JsonRecord[]; candidates: number; thoughts: number }> = [];
  let candidates = 0;
  let thoughts = 0;
  for (const piece of reply.reasoning?.pieces ?? []) {
    thoughts += 1;
    chunks.push({ parts: [{ text: piece, thought: true }], candidates, thoughts });
  }
  for (const piece of reply.text?.pieces ?? []) {
    candidates += 1;
    chunks.push({ parts: [{ text: piece }], candidates, thoughts });
  }
  for (const call of reply.toolCalls) {
    candidates += call.fragments.filter((fragment) => fragment !== '').length;
    const part = { functionCall: { name: call.name, args: call.arguments }, thoughtSignature: call.signature };
    chunks.push({ parts: [part], candidates, thoughts });
  }
  // Signatures and tool turns end with a separate empty text part, as recorded Gemini 3 streams do.
  const needsClosingPart = reply.reasoning !== null || reply.toolCalls.length > 0 || chunks.length === 0;
  if (needsClosingPart) {
    const closing = reply.reasoning === null ? { text: '' } : { text: '', thoughtSignature: reply.reasoning.signature };
    chunks.push({ parts: [closing], candidates, thoughts });
  }
  const finalCandidates = finalCandidateTokens(reply);
  return chunks.map((chunk, index) => {
    const last = index === chunks.length - 1;
    const usage = last
      ? usageMetadata(reply, finalCandidates, reply.usage.reasoningTokens)
      : usageMetadata(reply, chunk.candidates, chunk.thoughts);
    return envelope(context, chunk.parts, last ? { finishReason: finishReason(reply) } : {}, usage);
  });
}
