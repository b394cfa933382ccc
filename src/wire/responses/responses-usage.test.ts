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

  it('writes overlapping figures back, counting cache writes as input', () => {
    const written = responsesUsageFromUsage({ inputUncached: 10, cacheRead: 5, cacheWrite: 2, output: 7, reasoning: 3 });
    expect(written).toEqual({
      input_tokens: 17,
      input_tokens_details: { cached_tokens: 5 },
      output_tokens: 10,
      output_tokens_details: { reasoning_tokens: 3 },
      total_tokens: 27,
    });
    expect(usageFromResponsesUsage(responsesUsageFromUsage({ inputUncached: 10, cacheRead: 5, cacheWrite: 0, output: 7, reasoning: 3 }))).toEqual({
      inputUncached: 10,
      cacheRead: 5,
      cacheWrite: 0,
      output: 7,
      reasoning: 3,
    });
  });
});
