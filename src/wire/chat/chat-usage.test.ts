import { describe, expect, it } from 'vitest';
import { chatUsageFromUsage, usageFromChatPayload, usageFromChatUsage } from './chat-usage.js';

describe('chat usage conversion', () => {
  it('separates cached and reasoning tokens from the OpenAI totals', () => {
    expect(
      usageFromChatUsage({ prompt_tokens: 100, completion_tokens: 50, total_tokens: 150, prompt_tokens_details: { cached_tokens: 40 }, completion_tokens_details: { reasoning_tokens: 20 } }),
    ).toEqual({ inputUncached: 60, cacheRead: 40, cacheWrite: 0, output: 30, reasoning: 20 });
  });

  it('reads DeepSeek prompt_cache_hit_tokens when there are no details', () => {
    expect(usageFromChatUsage({ prompt_tokens: 339, completion_tokens: 83, prompt_cache_hit_tokens: 320, prompt_cache_miss_tokens: 19 })).toEqual({
      inputUncached: 19,
      cacheRead: 320,
      cacheWrite: 0,
      output: 83,
      reasoning: 0,
    });
  });

  it('treats xAI reasoning tokens as outside completion_tokens when the total says so', () => {
    expect(usageFromChatUsage({ prompt_tokens: 307, completion_tokens: 26, total_tokens: 560, completion_tokens_details: { reasoning_tokens: 227 } })).toMatchObject({
      output: 26,
      reasoning: 227,
    });
  });

  it('falls back to Groq x_groq.usage', () => {
    expect(usageFromChatPayload({ x_groq: { usage: { prompt_tokens: 3, completion_tokens: 2 } } })).toEqual({ inputUncached: 3, cacheRead: 0, cacheWrite: 0, output: 2, reasoning: 0 });
  });

  it('returns undefined for null or empty usage', () => {
    expect(usageFromChatPayload({ usage: null })).toBeUndefined();
    expect(usageFromChatUsage({})).toBeUndefined();
  });

  it('writes the chat usage object with cache writes counted in prompt_tokens', () => {
    const chat = chatUsageFromUsage({ inputUncached: 10, cacheRead: 5, cacheWrite: 2, output: 7, reasoning: 3 });
    expect(chat).toEqual({
      prompt_tokens: 17,
      completion_tokens: 10,
      total_tokens: 27,
      prompt_tokens_details: { cached_tokens: 5, audio_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 3, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
    });
    expect(usageFromChatUsage(chatUsageFromUsage({ inputUncached: 10, cacheRead: 5, cacheWrite: 0, output: 7, reasoning: 3 }))).toEqual({
      inputUncached: 10,
      cacheRead: 5,
      cacheWrite: 0,
      output: 7,
      reasoning: 3,
    });
  });
});
