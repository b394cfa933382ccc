import { describe, expect, it } from 'vitest';
import { hasTokenCounts, usageFromGemini } from './gemini-usage.js';

describe('usageFromGemini', () => {
  it('keeps thoughts apart from candidates and cached tokens apart from the prompt', () => {
    expect(
      usageFromGemini({ promptTokenCount: 100, cachedContentTokenCount: 30, candidatesTokenCount: 20, thoughtsTokenCount: 50, toolUsePromptTokenCount: 5 }),
    ).toEqual({ inputUncached: 75, cacheRead: 30, cacheWrite: 0, output: 20, reasoning: 50 });
  });

  it('gives zero buckets for absent metadata and tells figures from traffic-only metadata', () => {
    expect(usageFromGemini(undefined)).toEqual({ inputUncached: 0, cacheRead: 0, cacheWrite: 0, output: 0, reasoning: 0 });
    expect(hasTokenCounts({})).toBe(false);
    expect(hasTokenCounts({ promptTokenCount: 3 })).toBe(true);
  });
});
