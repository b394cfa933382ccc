import { type Usage, usageFromOverlapping } from '../../ir/index.js';
import { isRecord, readCount, readRecord } from '../../json/json-value.js';
import type { ResponsesUsage } from './responses-wire-types.js';

/**
 * A Responses `usage` object as disjoint buckets: `input_tokens_details.cached_tokens` (cache
 * reads) and `input_tokens_details.cache_write_tokens` are part of `input_tokens`, and
 * `output_tokens_details.reasoning_tokens` is part of `output_tokens`.
 */
export function usageFromResponsesUsage(raw: unknown): Usage | undefined {
  if (!isRecord(raw)) return undefined;
  const input = readCount(raw, 'input_tokens');
  const output = readCount(raw, 'output_tokens');
  if (input === undefined && output === undefined) return undefined;
  const inputDetails = readRecord(raw, 'input_tokens_details');
  return usageFromOverlapping({
    input: input ?? 0,
    cached: readCount(inputDetails, 'cached_tokens') ?? 0,
    cacheWrite: readCount(inputDetails, 'cache_write_tokens') ?? 0,
    output: output ?? 0,
    reasoning: readCount(readRecord(raw, 'output_tokens_details'), 'reasoning_tokens') ?? 0,
  });
}

/**
 * The Responses `usage` object for IR usage. Every figure the published API requires is written,
 * `cache_write_tokens` included (0 when nothing was written), so typed clients find them all.
 */
export function responsesUsageFromUsage(usage: Usage): ResponsesUsage {
  const inputTokens = usage.inputUncached + usage.cacheRead + usage.cacheWrite;
  const outputTokens = usage.output + usage.reasoning;
  return {
    input_tokens: inputTokens,
    input_tokens_details: { cached_tokens: usage.cacheRead, cache_write_tokens: usage.cacheWrite },
    output_tokens: outputTokens,
    output_tokens_details: { reasoning_tokens: usage.reasoning },
    total_tokens: inputTokens + outputTokens,
  };
}
