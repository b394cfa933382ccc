import { type Usage, usageFromOverlapping } from '../../ir/index.js';
import { isRecord, readCount, readRecord } from '../../json/json-value.js';
import type { ResponsesUsage } from './responses-wire-types.js';

/**
 * A Responses `usage` object as disjoint buckets: `input_tokens_details.cached_tokens` is part of
 * `input_tokens` and `output_tokens_details.reasoning_tokens` is part of `output_tokens`.
 */
export function usageFromResponsesUsage(raw: unknown): Usage | undefined {
  if (!isRecord(raw)) return undefined;
  const input = readCount(raw, 'input_tokens');
  const output = readCount(raw, 'output_tokens');
  if (input === undefined && output === undefined) return undefined;
  return usageFromOverlapping({
    input: input ?? 0,
    cached: readCount(readRecord(raw, 'input_tokens_details'), 'cached_tokens') ?? 0,
    output: output ?? 0,
    reasoning: readCount(readRecord(raw, 'output_tokens_details'), 'reasoning_tokens') ?? 0,
  });
}

/** The Responses `usage` object for IR usage (cache writes have no field: they stay in input_tokens). */
export function responsesUsageFromUsage(usage: Usage): ResponsesUsage {
  const inputTokens = usage.inputUncached + usage.cacheRead + usage.cacheWrite;
  const outputTokens = usage.output + usage.reasoning;
  return {
    input_tokens: inputTokens,
    input_tokens_details: { cached_tokens: usage.cacheRead },
    output_tokens: outputTokens,
    output_tokens_details: { reasoning_tokens: usage.reasoning },
    total_tokens: inputTokens + outputTokens,
  };
}
