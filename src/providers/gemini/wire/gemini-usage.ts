import type { Usage } from '../../../ir/index.js';
import type { GeminiUsageMetadata } from './generate-content-response.js';

/**
 * Gemini `usageMetadata` → disjoint buckets. `cachedContentTokenCount` is a subset of
 * `promptTokenCount`; `thoughtsTokenCount` is NOT part of `candidatesTokenCount` (their sum plus
 * the prompt is `totalTokenCount`); `toolUsePromptTokenCount` (prompt of server-side tool calls)
 * is extra input on top of the prompt.
 */
export function usageFromGemini(metadata: GeminiUsageMetadata | null | undefined): Usage {
  const prompt = metadata?.promptTokenCount ?? 0;
  const cached = metadata?.cachedContentTokenCount ?? 0;
  const toolUsePrompt = metadata?.toolUsePromptTokenCount ?? 0;
  return {
    inputUncached: Math.max(0, prompt - cached) + toolUsePrompt,
    cacheRead: cached,
    cacheWrite: 0,
    output: metadata?.candidatesTokenCount ?? 0,
    reasoning: metadata?.thoughtsTokenCount ?? 0,
  };
}

/** True when the metadata holds token figures (Vertex stream chunks carry only `trafficType`). */
export function hasTokenCounts(metadata: GeminiUsageMetadata | null | undefined): boolean {
  if (!metadata) return false;
  return (
    metadata.promptTokenCount != null ||
    metadata.candidatesTokenCount != null ||
    metadata.thoughtsTokenCount != null ||
    metadata.totalTokenCount != null
  );
}
