import { z } from 'zod';

/**
 * Zod schemas for the parts of a Gemini `GenerateContentResponse` the gateway reads (both the
 * whole body of `generateContent` and each `data:` of `streamGenerateContent?alt=sse`).
 * Fields the gateway never reads are stripped; everything is optional because stream chunks
 * carry only what is new.
 */

/** One fragment of a streamed function-call argument (Vertex, Gemini 3.x `streamFunctionCallArguments`). */
export const geminiPartialArgSchema = z.object({
  jsonPath: z.string(),
  stringValue: z.string().nullish(),
  numberValue: z.number().nullish(),
  boolValue: z.boolean().nullish(),
  nullValue: z.unknown().optional(),
  willContinue: z.boolean().nullish(),
});
export type GeminiPartialArg = z.infer<typeof geminiPartialArgSchema>;

export const geminiFunctionCallSchema = z.object({
  id: z.string().nullish(),
  name: z.string().nullish(),
  args: z.unknown().optional(),
  partialArgs: z.array(geminiPartialArgSchema).nullish(),
  willContinue: z.boolean().nullish(),
});
export type GeminiFunctionCall = z.infer<typeof geminiFunctionCallSchema>;

export const geminiResponsePartSchema = z.object({
  text: z.string().nullish(),
  thought: z.boolean().nullish(),
  thoughtSignature: z.string().nullish(),
  functionCall: geminiFunctionCallSchema.nullish(),
});
export type GeminiResponsePart = z.infer<typeof geminiResponsePartSchema>;

export const geminiUsageMetadataSchema = z.object({
  promptTokenCount: z.number().nullish(),
  candidatesTokenCount: z.number().nullish(),
  cachedContentTokenCount: z.number().nullish(),
  thoughtsTokenCount: z.number().nullish(),
  toolUsePromptTokenCount: z.number().nullish(),
  totalTokenCount: z.number().nullish(),
});
export type GeminiUsageMetadata = z.infer<typeof geminiUsageMetadataSchema>;

export const geminiCandidateSchema = z.object({
  content: z
    .object({
      role: z.string().nullish(),
      parts: z.array(geminiResponsePartSchema).nullish(),
    })
    .nullish(),
  finishReason: z.string().nullish(),
  finishMessage: z.string().nullish(),
  safetyRatings: z.unknown().optional(),
  citationMetadata: z.unknown().optional(),
  groundingMetadata: z.unknown().optional(),
});
export type GeminiCandidate = z.infer<typeof geminiCandidateSchema>;

export const geminiPromptFeedbackSchema = z.object({
  blockReason: z.string().nullish(),
  blockReasonMessage: z.string().nullish(),
  safetyRatings: z.unknown().optional(),
});

export const generateContentResponseSchema = z.object({
  candidates: z.array(geminiCandidateSchema).nullish(),
  promptFeedback: geminiPromptFeedbackSchema.nullish(),
  usageMetadata: geminiUsageMetadataSchema.nullish(),
  modelVersion: z.string().nullish(),
  responseId: z.string().nullish(),
  /** Vertex only: RFC 3339 creation time. */
  createTime: z.string().nullish(),
});
export type GenerateContentResponse = z.infer<typeof generateContentResponseSchema>;
