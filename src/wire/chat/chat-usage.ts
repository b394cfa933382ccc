import { type Usage, usageFromOverlapping } from '../../ir/index.js';
import { isRecord, readCount, readRecord } from '../../json/json-value.js';
import type { ChatUsage } from './chat-wire-types.js';

/**
 * Converts a chat `usage` object into disjoint buckets. Handles the vendor variations seen in
 * recorded traffic:
 * - OpenAI: `cached_tokens` ⊂ `prompt_tokens`, `reasoning_tokens` ⊂ `completion_tokens`.
 * - DeepSeek: `prompt_cache_hit_tokens` (also mirrored in `prompt_tokens_details`).
 * - xAI: `completion_tokens` EXCLUDES `reasoning_tokens` (total = prompt + completion + reasoning).
 * - OpenRouter-style `prompt_tokens_details.cache_write_tokens` (⊂ prompt).
 */
export function usageFromChatUsage(raw: unknown): Usage | undefined {
  if (!isRecord(raw)) return undefined;
  const prompt = readCount(raw, 'prompt_tokens');
  const completion = readCount(raw, 'completion_tokens');
  if (prompt === undefined && completion === undefined) return undefined;
  const promptDetails = readRecord(raw, 'prompt_tokens_details');
  const completionDetails = readRecord(raw, 'completion_tokens_details');
  const input = prompt ?? 0;
  const output = completion ?? 0;
  const cached = readCount(promptDetails, 'cached_tokens') ?? readCount(raw, 'prompt_cache_hit_tokens') ?? 0;
  const cacheWrite = readCount(promptDetails, 'cache_write_tokens') ?? 0;
  const reasoning = readCount(completionDetails, 'reasoning_tokens') ?? 0;
  const total = readCount(raw, 'total_tokens');
  const reasoningOutsideCompletion =
    reasoning > 0 && (reasoning > output || (total !== undefined && total === input + output + reasoning && total !== input + output));
  if (reasoningOutsideCompletion) {
    // xAI reports reasoning beside completion_tokens rather than inside it.
    return usageFromOverlapping({ input, cached, cacheWrite, output: output + reasoning, reasoning });
  }
  return usageFromOverlapping({ input, cached, cacheWrite, output, reasoning });
}

/**
 * Usage carried by a whole chat body or one stream chunk: `usage` when it is an object, else
 * Groq's `x_groq.usage` (Groq sends both on its finish chunk; older Groq only the latter).
 */
export function usageFromChatPayload(payload: unknown): Usage | undefined {
  if (!isRecord(payload)) return undefined;
  return usageFromChatUsage(payload['usage']) ?? usageFromChatUsage(readRecord(readRecord(payload, 'x_groq'), 'usage'));
}

/** The chat `usage` object for IR usage (cache writes have no chat field: they stay in prompt_tokens). */
export function chatUsageFromUsage(usage: Usage): ChatUsage {
  const promptTokens = usage.inputUncached + usage.cacheRead + usage.cacheWrite;
  const completionTokens = usage.output + usage.reasoning;
  return {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
    prompt_tokens_details: { cached_tokens: usage.cacheRead, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: usage.reasoning,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}
