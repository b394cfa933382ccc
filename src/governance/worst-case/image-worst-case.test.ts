import { describe, expect, it } from 'vitest';
import { parseUsdToPico } from '../../catalog/pricing/decimal-usd.js';
import type { PriceEntry, TokenRate } from '../../catalog/pricing/model-price.js';
import { imageCharge } from '../../media/images/image-charge.js';
import { worstImageCostNanoUsd } from './image-worst-case.js';

const price: PriceEntry = {
  effectiveFrom: '2026-01-01',
  image: {
    tiers: [
      { quality: 'low', size: '1024x1024', perImage: parseUsdToPico('0.011') },
      { quality: 'high', size: '1024x1024', perImage: parseUsdToPico('0.167') },
      { quality: 'high', size: '1536x1024', perImage: parseUsdToPico('0.25') },
    ],
  },
};
const rate = (usdPerMillion: string): TokenRate => ({ base: parseUsdToPico(usdPerMillion), tiers: [] });
const withTokens: PriceEntry = {
  ...price,
  image: { tiers: price.image?.tiers ?? [], tokens: { input: rate('5'), output: rate('40'), cacheRead: rate('1.25'), cacheWrite: rate('5'), cacheWriteOneHour: rate('5'), reasoning: rate('40') } },
};
const images = (count: number) => Array.from({ length: count }, () => ({ base64: 'AA==' }));

describe('the worst case of an image call', () => {
  it('is n images at the tier asked when the price has it', () => {
    expect(worstImageCostNanoUsd(price, { quality: 'low', size: '1024x1024' }, 3, 100)).toBe(33_000_000n);
  });

  it('is the dearest tier that fits when the request says auto or nothing', () => {
    expect(worstImageCostNanoUsd(price, { quality: 'auto', size: '1024x1024' }, 1, 10)).toBe(167_000_000n);
    expect(worstImageCostNanoUsd(price, {}, 2, 10)).toBe(500_000_000n);
    expect(worstImageCostNanoUsd(price, { quality: 'high' }, 1, 10)).toBe(250_000_000n);
  });

  it('adds the prompt bytes as input and 8192 output tokens per image where the price has token rates', () => {
    // 1 high 1024 image ($0.167) + 1,000 input tokens at $5/M ($0.005) + 8,192 output tokens at $40/M ($0.32768).
    expect(worstImageCostNanoUsd(withTokens, { quality: 'high', size: '1024x1024' }, 1, 1_000)).toBe(167_000_000n + 5_000_000n + 327_680_000n);
  });

  it('is never below what the same request is charged, whatever tier the upstream reports it made', () => {
    for (const asked of [{}, { quality: 'auto' }, { quality: 'high' }, { size: '1024x1024' }, { quality: 'low', size: '1024x1024' }]) {
      const worst = worstImageCostNanoUsd(price, asked, 2, 10);
      const made = price.image?.tiers.filter((tier) => (asked.quality === undefined || asked.quality === 'auto' || tier.quality === asked.quality) && (asked.size === undefined || tier.size === asked.size)) ?? [];
      for (const tier of made) expect(imageCharge(price, { images: images(2), quality: tier.quality, size: tier.size }, asked).costNanoUsd).toBeLessThanOrEqual(worst);
      expect(imageCharge(price, { images: images(2) }, asked).costNanoUsd).toBeLessThanOrEqual(worst);
    }
  });

  it('is nothing for a model without a price', () => {
    expect(worstImageCostNanoUsd(undefined, { quality: 'high' }, 4, 1_000)).toBe(0n);
  });

  it('reserves n of the largest images the request allows where the price is per megapixel', () => {
    const sized: PriceEntry = { effectiveFrom: '2026-01-01', image: { tiers: [{ quality: 'standard', size: 'any', perImage: parseUsdToPico('0.015') }], perMegapixel: parseUsdToPico('0.015') } };
    // 2 × ($0.015 + 4.194304 MP × $0.015).
    expect(worstImageCostNanoUsd(sized, { worstPixels: 4_194_304n }, 2, 10)).toBe(2n * (15_000_000n + 62_914_560n));
    const charged = imageCharge(sized, { images: [{ base64: 'AA==', width: 2048, height: 2048 }, { base64: 'AA==', width: 2048, height: 2048 }] }, { worstPixels: 4_194_304n });
    expect(charged.costNanoUsd).toBe(worstImageCostNanoUsd(sized, { worstPixels: 4_194_304n }, 2, 10));
  });
});
