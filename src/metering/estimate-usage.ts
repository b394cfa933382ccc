import type { Usage } from '../ir/usage.js';

/**
 * A stand-in when an upstream reported no usage (a stream cut short, a server that omits it):
 * about four characters per token of the request body, marked estimated so it is never
 * mistaken for a measured figure, and never zero.
 */
export function estimateUsage(requestCharacters: number): Usage {
  return {
    inputUncached: Math.max(1, Math.ceil(requestCharacters / 4)),
    cacheRead: 0,
    cacheWrite: 0,
    output: 0,
    reasoning: 0,
    estimated: true,
  };
}

/**
 * The usage of a stream cut before its final usage arrived: what the upstream had reported by
 * then (a Messages stream states its input at the start) or the estimate of the input, with at
 * least the output tokens counted in what the client was sent. Marked estimated: the upstream's
 * own figure for the output never came.
 */
export function usageOfCutStream(reported: Usage | undefined, requestCharacters: number, deliveredOutputTokens: number): Usage {
  const base = reported ?? estimateUsage(requestCharacters);
  const counted = Math.max(0, deliveredOutputTokens - base.reasoning);
  return { ...base, output: Math.max(base.output, counted), estimated: true };
}
