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
