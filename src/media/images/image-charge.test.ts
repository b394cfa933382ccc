import { describe, expect, it } from 'vitest';
import { parseUsdToPico } from '../../catalog/pricing/decimal-usd.js';
import type { PriceEntry } from '../../catalog/pricing/model-price.js';
import { imageCharge } from './image-charge.js';

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
const images = (count: number) => Array.from({ length: count }, () => ({ base64: 'AA==' }));

describe('what an image call costs', () => {
  it('bills the tier asked × images returned', () => {
    expect(imageCharge(price, { images: images(3) }, { quality: 'low', size: '1024x1024' })).toMatchObject({ costNanoUsd: 33_000_000n, count: 3, tierAssumed: false });
  });

  it('bills the tier the upstream reports when the request said auto or nothing', () => {
    const charge = imageCharge(price, { images: images(2), quality: 'high', size: '1536x1024' }, { quality: 'auto' });
    expect(charge).toMatchObject({ quality: 'high', size: '1536x1024', costNanoUsd: 500_000_000n, tierAssumed: false });
  });

  it('bills the dearest fitting tier when nobody says which was made, never nothing', () => {
    expect(imageCharge(price, { images: images(1) }, { quality: 'auto', size: '1024x1024' })).toMatchObject({ quality: 'high', costNanoUsd: 167_000_000n, tierAssumed: true });
    expect(imageCharge(price, { images: images(1) }, {})).toMatchObject({ size: '1536x1024', costNanoUsd: 250_000_000n, tierAssumed: true });
  });

  it('bills a size between the listed ones at the smallest listed size holding as many pixels, not the dearest', () => {
    const bySizeClass: PriceEntry = {
      effectiveFrom: '2026-01-01',
      image: {
        tiers: [
          { quality: 'standard', size: '1024x1024', perImage: parseUsdToPico('0.04') },
          { quality: 'standard', size: '2048x2048', perImage: parseUsdToPico('0.06') },
          { quality: 'premium', size: '1024x1024', perImage: parseUsdToPico('0.06') },
          { quality: 'premium', size: '2048x2048', perImage: parseUsdToPico('0.08') },
        ],
      },
    };
    expect(imageCharge(bySizeClass, { images: images(2), quality: 'standard', size: '1280x720' }, {})).toMatchObject({ size: '1024x1024', costNanoUsd: 80_000_000n, tierAssumed: false });
    expect(imageCharge(bySizeClass, { images: images(1), quality: 'premium', size: '1280x1024' }, {})).toMatchObject({ size: '2048x2048', costNanoUsd: 80_000_000n, tierAssumed: false });
    expect(imageCharge(bySizeClass, { images: images(1), quality: 'standard', size: '4096x1024' }, {})).toMatchObject({ size: '2048x2048', costNanoUsd: 60_000_000n });
    // Larger than every listed size: the dearest of the quality, as before.
    expect(imageCharge(bySizeClass, { images: images(1), quality: 'standard', size: '4096x2048' }, {})).toMatchObject({ size: '2048x2048', tierAssumed: true });
  });

  it('adds token charges only where the price has them', () => {
    const usage = { inputUncached: 1_000_000, cacheRead: 0, cacheWrite: 0, output: 0, reasoning: 0 };
    expect(imageCharge(price, { images: images(1), usage }, { quality: 'low', size: '1024x1024' }).costNanoUsd).toBe(11_000_000n);
    const rate = { base: parseUsdToPico('5'), tiers: [] };
    const withTokens: PriceEntry = { ...price, image: { tiers: price.image?.tiers ?? [], tokens: { input: rate, output: rate, cacheRead: rate, cacheWrite: rate, cacheWriteOneHour: rate, reasoning: rate } } };
    expect(imageCharge(withTokens, { images: images(1), usage }, { quality: 'low', size: '1024x1024' }).costNanoUsd).toBe(5_011_000_000n);
  });

  it('costs nothing for a model without a price', () => {
    expect(imageCharge(undefined, { images: images(2) }, { quality: 'low', size: '1024x1024' }).costNanoUsd).toBe(0n);
  });

  it('bills a price per megapixel on the megapixels the upstream billed, else those measured, exactly', () => {
    const sized: PriceEntry = { effectiveFrom: '2026-01-01', image: { tiers: [{ quality: 'standard', size: 'any', perImage: parseUsdToPico('0.015') }], perMegapixel: parseUsdToPico('0.015') } };
    // 1.47 MP reported: $0.015 + 1.47 × $0.015.
    expect(imageCharge(sized, { images: [{ base64: 'AA==', width: 1440, height: 1024, billedMegapixels: '1.47' }] }, {})).toMatchObject({ costNanoUsd: 37_050_000n, tierAssumed: false });
    // 1440 × 1024 = 1,474,560 pixels measured: $0.015 + 1.47456 × $0.015 = $0.0371184.
    expect(imageCharge(sized, { images: [{ base64: 'AA==', width: 1440, height: 1024 }] }, {}).costNanoUsd).toBe(37_118_400n);
    // Nothing measured: the size reported, else asked, else the most the request allowed.
    const perMegapixelOnly: PriceEntry = { effectiveFrom: '2026-01-01', image: { tiers: [], perMegapixel: parseUsdToPico('0.05') } };
    expect(imageCharge(perMegapixelOnly, { images: images(2), size: '1000x1000' }, {}).costNanoUsd).toBe(100_000_000n);
    expect(imageCharge(perMegapixelOnly, { images: images(1) }, { size: '2000x1000' }).costNanoUsd).toBe(100_000_000n);
    expect(imageCharge(perMegapixelOnly, { images: images(1) }, { worstPixels: 4_000_000n }).costNanoUsd).toBe(200_000_000n);
  });
});
