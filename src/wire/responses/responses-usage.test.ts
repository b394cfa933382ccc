import { describe, expect, it } from 'vitest';
import { responsesUsageFromUsage, usageFromResponsesUsage } from './responses-usage.js';

describe('Responses usage conversion', () => {
  it('separates cached input and reasoning output from the totals that contain them', () => {
    expect(
      usageFromResponsesUsage({
        input_tokens: 31073,
        input_tokens_details: { cached_tokens: 3712 },
        output_tokens: 4416,
        output_tokens_details: { reasoning_tokens: 3712 },
        total_tokens: 35489,
      }),
    ).toEqual({ inputUncached: 27361, cacheRead: 3712, cacheWrite: 0, output: 704, reasoning: 3712 });
  });

  it('accepts missing details and returns undefined for no usage', () => {
    expect(usageFromResponsesUsage({ input_tokens: 3, output_tokens: 2 })).toEqual({ inputUncached: 3, cacheRead: 0, cacheWrite: 0, output: 2, reasoning: 0 });
    expect(usageFromResponsesUsage(null)).toBeUndefined();
    expect(usageFromResponsesUsage({})).toBeUndefined();
  });

  it('takes cache writes out of input_tokens, which contains them', () => {
    expect(
      usageFromResponsesUsage({
        input_tokens: 2100,
        input_tokens_details: { cached_tokens: 0, cache_write_tokens: 2048 },
        output_tokens: 12,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: 2112,
      }),
    ).toEqual({ inputUncached: 52, cacheRead: 0, cacheWrite: 2048, output: 12, reasoning: 0 });
  });

  it('writes overlapping figures back, cache writes in cache_write_tokens and in input_tokens', () => {
    const written = responsesUsageFromUsage({ inputUncached: 10, cacheRead: 5, cacheWrite: 2, output: 7, reasoning: 3 });
    expect(written).toEqual({
      input_tokens: 17,
      input_tokens_details: { cached_tokens: 5, cache_write_tokens: 2 },
      output_tokens: 10,
      output_tokens_details: { reasoning_tokens: 3 },
      total_tokens: 27,
    });
    expect(usageFromResponsesUsage(responsesUsageFromUsage({ inputUncached: 10, cacheRead: 5, cacheWrite: 2, output: 7, reasoning: 3 }))).toEqual({
      inputUncached: 10,
      cacheRead: 5,
      cacheWrite: 2,
      output: 7,
      reasoning: 3,
    });
  });

  it('writes cache_write_tokens as 0 when nothing was written', () => {
    expect(responsesUsageFromUsage({ inputUncached: 3, cacheRead: 0, cacheWrite: 0, output: 2, reasoning: 0 }).input_tokens_details).toEqual({
      cached_tokens: 0,
      cache_write_tokens: 0,
    });
  });
});
