import { describe, expect, it } from 'vitest';
import { totalInputTokens } from '../../../../ir/index.js';
import { usageFromConverseUsage } from './converse-usage.js';

describe('Converse usage → IR usage', () => {
  it('keeps inputTokens as the uncached input when the total counts cache reads and writes on top of it', () => {
    const usage = usageFromConverseUsage({ inputTokens: 12, outputTokens: 40, cacheReadInputTokens: 3000, cacheWriteInputTokens: 200, totalTokens: 3252 });
    expect(usage).toEqual({ inputUncached: 12, cacheRead: 3000, cacheWrite: 200, output: 40, reasoning: 0 });
    expect(totalInputTokens(usage)).toBe(3212);
  });

  it('takes cache reads and writes out of inputTokens when the total shows they were counted inside it', () => {
    const usage = usageFromConverseUsage({ inputTokens: 3212, outputTokens: 40, cacheReadInputTokens: 3000, cacheWriteInputTokens: 200, totalTokens: 3252 });
    expect(usage).toEqual({ inputUncached: 12, cacheRead: 3000, cacheWrite: 200, output: 40, reasoning: 0 });
  });

  it('notes the cache writes kept one hour from cacheDetails', () => {
    const usage = usageFromConverseUsage({
      inputTokens: 5, outputTokens: 1, cacheWriteInputTokens: 1500, totalTokens: 1506,
      cacheDetails: [{ inputTokens: 1000, ttl: '1h' }, { inputTokens: 500, ttl: '5m' }],
    });
    expect(usage).toEqual({ inputUncached: 5, cacheRead: 0, cacheWrite: 1500, cacheWriteOneHour: 1000, output: 1, reasoning: 0 });
  });

  it('reads a recorded usage with zero cache figures and extra members', () => {
    const usage = usageFromConverseUsage({ cacheReadInputTokenCount: 0, cacheReadInputTokens: 0, cacheWriteInputTokenCount: 0, cacheWriteInputTokens: 0, inputTokens: 51, outputTokens: 78, serverToolUsage: {}, totalTokens: 129 });
    expect(usage).toEqual({ inputUncached: 51, cacheRead: 0, cacheWrite: 0, output: 78, reasoning: 0 });
  });

  it('reads no usage as zero', () => {
    expect(usageFromConverseUsage(undefined)).toEqual({ inputUncached: 0, cacheRead: 0, cacheWrite: 0, output: 0, reasoning: 0 });
  });
});
