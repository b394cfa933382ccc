import { describe, expect, it } from 'vitest';
import { outputBound } from './output-bound.js';

describe('the output bound of a text body', () => {
  it("reads each format's own cap field only", () => {
    expect(outputBound('messages', { max_tokens: 100, max_output_tokens: 1 })).toEqual({ capTokens: 100, choices: 1 });
    expect(outputBound('responses', { max_output_tokens: 50, max_tokens: 1 })).toEqual({ capTokens: 50, choices: 1 });
    expect(outputBound('chat', { max_completion_tokens: 70, max_output_tokens: 1 })).toEqual({ capTokens: 70, choices: 1 });
  });

  it('takes the larger of chat max_tokens and max_completion_tokens, whichever an upstream obeys', () => {
    expect(outputBound('chat', { max_completion_tokens: 1, max_tokens: 100_000 })).toEqual({ capTokens: 100_000, choices: 1 });
    expect(outputBound('chat', { max_completion_tokens: 900, max_tokens: 10 })).toEqual({ capTokens: 900, choices: 1 });
  });

  it("counts chat's n choices, and no choices in formats without n", () => {
    expect(outputBound('chat', { max_tokens: 10, n: 4 })).toEqual({ capTokens: 10, choices: 4 });
    expect(outputBound('chat', {})).toEqual({ capTokens: undefined, choices: 1 });
    expect(outputBound('responses', { max_output_tokens: 10, n: 4 })).toEqual({ capTokens: 10, choices: 1 });
  });
});
