import { describe, expect, it } from 'vitest';
import type { TokenPrices, TokenRate } from '../../catalog/pricing/model-price.js';
import { tokensPerReferencedImage, tokensWorstNanoUsd, uncappedOutputTokens, worstTextCostNanoUsd } from './text-worst-case.js';

const rate = (picoPerMillion: bigint, tiers: TokenRate['tiers'] = []): TokenRate => ({ base: picoPerMillion, tiers });
const prices = (input: bigint, output: bigint, extra: Partial<TokenPrices> = {}): TokenPrices => ({
  input: rate(input),
  output: rate(output),
  cacheRead: rate(input / 10n),
  cacheWrite: rate(input),
  cacheWriteOneHour: rate(input),
  reasoning: rate(output),
  ...extra,
});

/** Independent of the code under test: bigint all the way, rounded up to the nano-dollar. */
function expected(inputRate: bigint, outputRate: bigint, inputTokens: number, outputTokens: number): bigint {
  const atto = BigInt(inputTokens) * inputRate + BigInt(outputTokens) * outputRate;
  return (atto + 999_999_999n) / 1_000_000_000n;
}

describe('worst-case cost', () => {
  it('is exact to the nano-dollar, rounded up, for random rates and token counts', () => {
    let seed = 7;
    const next = (below: number): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % below;
    };
    for (let round = 0; round < 5_000; round += 1) {
      // Up to $3,000 per million tokens, to the pico-dollar.
      const input = BigInt(next(3_000_000)) * 1_000_000n + BigInt(next(1_000_000));
      const output = BigInt(next(3_000_000)) * 1_000_000n + BigInt(next(1_000_000));
      const inputTokens = next(1_500_000);
      const outputTokens = next(1_500_000);
      expect(tokensWorstNanoUsd(prices(input, output), inputTokens, outputTokens)).toBe(expected(input, output, inputTokens, outputTokens));
    }
  });

  it('prices each side at its dearest rate: cache writes above input, reasoning above output', () => {
    const dear = prices(1_000_000n, 4_000_000n, { cacheWriteOneHour: rate(2_000_000n), reasoning: rate(9_000_000n) });
    expect(tokensWorstNanoUsd(dear, 1_000, 10)).toBe(expected(2_000_000n, 9_000_000n, 1_000, 10));
  });

  it('applies a long-context tier only once the input bound crosses it', () => {
    const tiered = prices(3_000_000_000_000n, 15_000_000_000_000n, {
      input: rate(3_000_000_000_000n, [{ aboveInputTokens: 200_000, rate: 6_000_000_000_000n }]),
      output: rate(15_000_000_000_000n, [{ aboveInputTokens: 200_000, rate: 22_500_000_000_000n }]),
    });
    expect(tokensWorstNanoUsd(tiered, 200_000, 1_000)).toBe(expected(3_000_000_000_000n, 15_000_000_000_000n, 200_000, 1_000));
    expect(tokensWorstNanoUsd(tiered, 200_001, 1_000)).toBe(expected(6_000_000_000_000n, 22_500_000_000_000n, 200_001, 1_000));
  });

  it('bounds input by the body bytes plus an allowance per referenced image, and output by the cap or the uncapped bound on each choice', () => {
    const text = prices(150_000_000_000n, 600_000_000_000n);
    const body = '{"messages":[{"content":[{"type":"image_url","image_url":{"url":"https://x/y.png"}}]}]}';
    const inputTokens = Buffer.byteLength(body) + 2 * tokensPerReferencedImage;
    expect(worstTextCostNanoUsd({ effectiveFrom: '2024-01-01', text }, body, { capTokens: undefined, choices: 1 })).toBe(expected(150_000_000_000n, 600_000_000_000n, inputTokens, uncappedOutputTokens));
    expect(worstTextCostNanoUsd({ effectiveFrom: '2024-01-01', text }, body, { capTokens: 100, choices: 1 })).toBe(expected(150_000_000_000n, 600_000_000_000n, inputTokens, 100));
    expect(worstTextCostNanoUsd({ effectiveFrom: '2024-01-01', text }, body, { capTokens: 100, choices: 3 })).toBe(expected(150_000_000_000n, 600_000_000_000n, inputTokens, 300));
  });
});
