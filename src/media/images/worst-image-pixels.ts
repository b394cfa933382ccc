import { sizePixels } from '../../catalog/pricing/image-pixels.js';
import type { ImageRules } from '../../catalog/records/image-model-record.js';

/**
 * The most pixels one image of a request can have: the size asked, else the largest the model's
 * rules allow (its pixel limit, or its largest sides, or its largest listed size). What a budget
 * reserves for a model priced per megapixel, and what is billed when nothing measured the image.
 */
export function worstImagePixels(rules: ImageRules, size: string | undefined): bigint {
  const asked = sizePixels(size);
  if (asked !== undefined) return asked;
  const { dimensions } = rules;
  if (dimensions !== undefined) return BigInt(dimensions.maxPixels ?? dimensions.maxWidth * dimensions.maxHeight);
  return (rules.sizes ?? []).reduce((largest, listed) => {
    const pixels = sizePixels(listed) ?? 0n;
    return pixels > largest ? pixels : largest;
  }, 0n);
}
