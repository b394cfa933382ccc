import type { VideoVariantConfig } from '../../config/model-record-schema.js';

/** A well-known video model: the variants it sells, priced per second, in the config's own shape. */
export interface BuiltinVideoRecord {
  readonly ownedBy: string;
  readonly effectiveFrom: string;
  readonly variants: readonly VideoVariantConfig[];
  readonly remix: boolean;
}

type Mode = VideoVariantConfig['mode'];
const bothModes: readonly Mode[] = ['text-to-video', 'image-to-video'];

/** Every mode × aspect ratio at one resolution, lengths and price. */
function variants(resolution: string, aspectRatios: readonly string[], seconds: readonly number[], usdPerSecond: string, size?: (aspectRatio: string) => string): VideoVariantConfig[] {
  return bothModes.flatMap((mode) =>
    aspectRatios.map((aspectRatio) => ({
      mode,
      resolution,
      aspect_ratio: aspectRatio,
      ...(size === undefined ? {} : { size: size(aspectRatio) }),
      seconds: [...seconds],
      usd_per_second: usdPerSecond,
    })),
  );
}

const landscapeAndPortrait = ['16:9', '9:16'];
const veoLengths = [4, 6, 8];
/** Veo makes 1080p only at eight seconds. */
const veoFullHd = [8];
const soraLengths = [4, 8, 12];
const soraLarge = (aspectRatio: string): string => (aspectRatio === '16:9' ? '1792x1024' : '1024x1792');

/**
 * One Hailuo variant: MiniMax takes a resolution but no aspect ratio, so every variant is 16:9
 * (image-to-video follows its first frame). Unpriced: MiniMax's price list was not at hand, so the
 * operator prices each in the model's `price.per_second` (an unpriced variant is not sold).
 */
function hailuo(mode: Mode, resolution: string, seconds: readonly number[]): VideoVariantConfig {
  return { mode, resolution, aspect_ratio: '16:9', size: hailuoSizes[resolution] ?? '1280x720', seconds: [...seconds] };
}

/** The frame each Hailuo resolution means at 16:9 (768P is 1366 wide, as 768-line displays are). */
const hailuoSizes: Readonly<Record<string, string>> = { '512p': '912x512', '720p': '1280x720', '768p': '1366x768', '1080p': '1920x1080' };

/** Hailuo-02 and 2.3: 6 or 10 seconds at 768P, 6 at 1080P. */
function hailuoVariants(mode: Mode): VideoVariantConfig[] {
  return [hailuo(mode, '768p', [6, 10]), hailuo(mode, '1080p', [6])];
}

/** Video models the gateway knows by id. Prices are the vendors' list prices (with audio) on the date shown. */
export const builtinVideoRecords: Readonly<Record<string, BuiltinVideoRecord>> = {
  'sora-2': { ownedBy: 'openai', effectiveFrom: '2025-10-06', remix: true, variants: variants('720p', landscapeAndPortrait, soraLengths, '0.10') },
  'sora-2-pro': {
    ownedBy: 'openai',
    effectiveFrom: '2025-10-06',
    remix: true,
    variants: [...variants('720p', landscapeAndPortrait, soraLengths, '0.30'), ...variants('1024p', landscapeAndPortrait, soraLengths, '0.50', soraLarge)],
  },
  'veo-3.1-generate-preview': {
    ownedBy: 'google',
    effectiveFrom: '2025-10-15',
    remix: false,
    variants: [...variants('720p', landscapeAndPortrait, veoLengths, '0.40'), ...variants('1080p', landscapeAndPortrait, veoFullHd, '0.40')],
  },
  'veo-3.1-fast-generate-preview': {
    ownedBy: 'google',
    effectiveFrom: '2025-10-15',
    remix: false,
    variants: [...variants('720p', landscapeAndPortrait, veoLengths, '0.15'), ...variants('1080p', landscapeAndPortrait, veoFullHd, '0.15')],
  },
  'veo-3.0-generate-001': {
    ownedBy: 'google',
    effectiveFrom: '2025-09-09',
    remix: false,
    variants: [...variants('720p', landscapeAndPortrait, veoLengths, '0.40'), ...variants('1080p', landscapeAndPortrait, veoFullHd, '0.40')],
  },
  'veo-3.0-fast-generate-001': {
    ownedBy: 'google',
    effectiveFrom: '2025-09-09',
    remix: false,
    variants: [...variants('720p', landscapeAndPortrait, veoLengths, '0.15'), ...variants('1080p', landscapeAndPortrait, veoFullHd, '0.15')],
  },
  'MiniMax-Hailuo-2.3': { ownedBy: 'minimax', effectiveFrom: '2025-10-28', remix: false, variants: [...hailuoVariants('text-to-video'), ...hailuoVariants('image-to-video')] },
  'MiniMax-Hailuo-2.3-Fast': { ownedBy: 'minimax', effectiveFrom: '2025-10-28', remix: false, variants: hailuoVariants('image-to-video') },
  'MiniMax-Hailuo-02': {
    ownedBy: 'minimax',
    effectiveFrom: '2025-06-18',
    remix: false,
    variants: [...hailuoVariants('text-to-video'), hailuo('image-to-video', '512p', [6, 10]), ...hailuoVariants('image-to-video')],
  },
  'veo-2.0-generate-001': { ownedBy: 'google', effectiveFrom: '2025-04-09', remix: false, variants: variants('720p', landscapeAndPortrait, [5, 6, 7, 8], '0.35') },
};
