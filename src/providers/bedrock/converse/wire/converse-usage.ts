import type { Usage } from '../../../../ir/index.js';
import { asArray, isRecord, readCount, readString } from '../../../../json/json-value.js';

/**
 * Converse `TokenUsage` → IR usage in disjoint buckets.
 *
 * The API reference says only that `inputTokens` are "the tokens sent in the request" and
 * `totalTokens` "the total of input tokens and tokens generated". As Bedrock reports prompt
 * caching, `inputTokens` leaves out the tokens read from and written to the cache (as Anthropic's
 * `input_tokens` does) and `totalTokens` adds them back: input + output + read + write. Should an
 * answer instead count the cache inside `inputTokens` — its total then being input + output alone
 * while cache figures are present — they are taken out of it, so no token is charged twice.
 *
 * Converse reports no reasoning breakdown: all output counts as visible output. `cacheDetails`
 * (writes by time to live, `5m` or `1h`) gives the part of the writes kept one hour.
 */
export function usageFromConverseUsage(value: unknown): Usage {
  if (!isRecord(value)) return { inputUncached: 0, cacheRead: 0, cacheWrite: 0, output: 0, reasoning: 0 };
  const input = readCount(value, 'inputTokens') ?? 0;
  const output = readCount(value, 'outputTokens') ?? 0;
  const cacheRead = readCount(value, 'cacheReadInputTokens') ?? 0;
  const cacheWrite = readCount(value, 'cacheWriteInputTokens') ?? 0;
  const total = readCount(value, 'totalTokens');
  const cached = cacheRead + cacheWrite;
  const cacheInsideInput = cached > 0 && total !== undefined && total === input + output && input >= cached;
  const oneHour = oneHourWrites(value['cacheDetails']);
  return {
    inputUncached: cacheInsideInput ? input - cached : input,
    cacheRead,
    cacheWrite,
    ...(oneHour > 0 && cacheWrite > 0 ? { cacheWriteOneHour: Math.min(oneHour, cacheWrite) } : {}),
    output,
    reasoning: 0,
  };
}

function oneHourWrites(details: unknown): number {
  let tokens = 0;
  for (const detail of asArray(details)) {
    if (!isRecord(detail)) continue;
    const ttl = readString(detail, 'ttl')?.toLowerCase();
    if (ttl === '1h' || ttl === 't1h') tokens += readCount(detail, 'inputTokens') ?? 0;
  }
  return tokens;
}
