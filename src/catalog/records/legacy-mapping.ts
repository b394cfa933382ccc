import type { ImageRules, LegacyMapping } from './image-model-record.js';
import { ownEntry } from './own-entry.js';

const qualityLadder = ['low', 'medium', 'high'];

/**
 * The nearest quality the current model sells for what a legacy quality meant: the same rung, else
 * the closest one below, else above; `auto` when the current model has no ladder.
 */
function nearestQuality(meaning: string | undefined, current: readonly string[]): string {
  if (meaning !== undefined && current.includes(meaning)) return meaning;
  const rung = qualityLadder.indexOf(meaning ?? '');
  if (rung >= 0) {
    const sold = qualityLadder.filter((quality) => current.includes(quality));
    const below = sold.filter((quality) => qualityLadder.indexOf(quality) < rung).at(-1);
    const above = sold.find((quality) => qualityLadder.indexOf(quality) > rung);
    const nearest = below ?? above;
    if (nearest !== undefined) return nearest;
  }
  return current.includes('auto') ? 'auto' : (current[0] as string);
}

function dimensionsOf(size: string): { width: number; height: number } {
  const [width, height] = size.split('x').map(Number) as [number, number];
  return { width, height };
}

/** The current size closest in shape (aspect ratio), then in area, to a legacy size. */
function nearestSize(legacy: string, current: ImageRules): string {
  if (current.sizes === undefined) return legacy;
  if (current.sizes.includes(legacy)) return legacy;
  const wanted = dimensionsOf(legacy);
  const candidates = current.sizes.filter((size) => size !== 'auto');
  const distance = (size: string): [number, number] => {
    const { width, height } = dimensionsOf(size);
    return [Math.abs(Math.log(width / height) - Math.log(wanted.width / wanted.height)), Math.abs(width * height - wanted.width * wanted.height)];
  };
  const ranked = [...candidates].sort((left, right) => {
    const [leftShape, leftArea] = distance(left);
    const [rightShape, rightArea] = distance(right);
    return leftShape - rightShape || leftArea - rightArea;
  });
  return ranked[0] ?? 'auto';
}

/** A legacy model's mapping onto the current one, derived from both rule sets; the config may override any of it. */
export function deriveLegacyMapping(
  legacy: ImageRules,
  current: ImageRules,
  qualityMeaning: Readonly<Record<string, string>>,
  dropped: readonly string[],
  configured?: { readonly quality?: Readonly<Record<string, string>>; readonly size?: Readonly<Record<string, string>>; readonly dropped?: readonly string[] },
): LegacyMapping {
  const quality = Object.fromEntries(legacy.qualities.map((name) => [name, nearestQuality(ownEntry(qualityMeaning, name) ?? name, current.qualities)]));
  const size = Object.fromEntries((legacy.sizes ?? []).filter((name) => name !== 'auto').map((name) => [name, nearestSize(name, current)]));
  return {
    quality: { ...quality, ...configured?.quality },
    size: { ...size, ...configured?.size },
    dropped: configured?.dropped ?? [...dropped, ...legacy.styles.length > 0 && current.styles.length === 0 && !dropped.includes('style') ? ['style'] : []],
  };
}
