import type { VideoVariantConfig } from '../../config/model-record-schema.js';
import { runwayVideoRecords } from './builtin-runway-video-records.js';

/** A well-known video model: the variants it sells, priced per second, in the config's own shape. */
export interface BuiltinVideoRecord {
  readonly ownedBy: string;
  readonly effectiveFrom: string;
  readonly variants: readonly VideoVariantConfig[];
  readonly remix: boolean;
  /** The largest first frame its upstream takes, where that is less than the default. */
  readonly maxInputReferenceBytes?: number;
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
  'veo-2.0-generate-001': { ownedBy: 'google', effectiveFrom: '2025-04-09', remix: false, variants: variants('720p', landscapeAndPortrait, [5, 6, 7, 8], '0.35') },
  ...runwayVideoRecords,
};
