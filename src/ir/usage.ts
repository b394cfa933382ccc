/**
 * Token usage in disjoint buckets: nothing is counted twice, so cost is a plain sum of
 * bucket × price. Wire formats that report overlapping figures (cached ⊂ prompt, reasoning ⊂
 * completion) are converted at the boundary.
 */
export interface Usage {
  /** Input tokens that were neither read from nor written to a prompt cache. */
  readonly inputUncached: number;
  readonly cacheRead: number;
  readonly cacheWrite: number;
  /** The part of `cacheWrite` kept one hour rather than five minutes (Anthropic prices it higher). */
  readonly cacheWriteOneHour?: number;
  /** Visible output tokens, reasoning excluded. */
  readonly output: number;
  readonly reasoning: number;
  /** True when the upstream gave no usage and these figures were counted by the gateway. */
  readonly estimated?: boolean;
}

export const zeroUsage: Usage = { inputUncached: 0, cacheRead: 0, cacheWrite: 0, output: 0, reasoning: 0 };

export function totalInputTokens(usage: Usage): number {
  return usage.inputUncached + usage.cacheRead + usage.cacheWrite;
}

export function totalOutputTokens(usage: Usage): number {
  return usage.output + usage.reasoning;
}

export function isEmptyUsage(usage: Usage): boolean {
  return totalInputTokens(usage) === 0 && totalOutputTokens(usage) === 0;
}

/**
 * Builds disjoint buckets from the overlapping figures the OpenAI formats report
 * (`cached` ⊂ `input`, `reasoning` ⊂ `output`).
 */
export function usageFromOverlapping(figures: {
  input: number;
  cached?: number;
  cacheWrite?: number;
  output: number;
  reasoning?: number;
}): Usage {
  const cacheRead = figures.cached ?? 0;
  const cacheWrite = figures.cacheWrite ?? 0;
  const reasoning = figures.reasoning ?? 0;
  return {
    inputUncached: Math.max(0, figures.input - cacheRead - cacheWrite),
    cacheRead,
    cacheWrite,
    output: Math.max(0, figures.output - reasoning),
    reasoning,
  };
}
