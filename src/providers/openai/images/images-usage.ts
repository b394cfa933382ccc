import { usageFromOverlapping, type Usage } from '../../../ir/index.js';
import { isRecord, readCount, readRecord } from '../../../json/json-value.js';

/**
 * The Images API `usage` (`input_tokens` with its text/image details, `output_tokens`) as
 * disjoint buckets. Text and image input tokens are both plain input; `cached_tokens`, where an
 * upstream reports it, is a part of `input_tokens` as in the Responses API. Undefined when the
 * answer has no usage (dall-e models and most compatible servers report none).
 */
export function usageFromImagesUsage(raw: unknown): Usage | undefined {
  if (!isRecord(raw)) return undefined;
  const input = readCount(raw, 'input_tokens');
  const output = readCount(raw, 'output_tokens');
  if (input === undefined && output === undefined) return undefined;
  const cached = readCount(readRecord(raw, 'input_tokens_details'), 'cached_tokens') ?? 0;
  return usageFromOverlapping({ input: input ?? 0, cached, output: output ?? 0 });
}
