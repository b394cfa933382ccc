import type { VideoVariantConfig } from '../../config/model-record-schema.js';
import type { BuiltinVideoRecord } from './builtin-video-records.js';

type Mode = VideoVariantConfig['mode'];

/** One of Runway's `ratio` values: it names the output's pixel size, which is the variant's `size`. */
interface RunwayRatio {
  readonly size: string;
  readonly resolution: string;
  readonly aspectRatio: string;
}

const landscape: RunwayRatio = { size: '1280x720', resolution: '720p', aspectRatio: '16:9' };
const portrait: RunwayRatio = { size: '720x1280', resolution: '720p', aspectRatio: '9:16' };
/** Gen-4's other frames: Runway names them by pixels only; their nearest common ratio names them here. */
const gen4Frames: readonly RunwayRatio[] = [
  landscape,
  portrait,
  { size: '1104x832', resolution: '720p', aspectRatio: '4:3' },
  { size: '832x1104', resolution: '720p', aspectRatio: '3:4' },
  { size: '960x960', resolution: '720p', aspectRatio: '1:1' },
  { size: '1584x672', resolution: '720p', aspectRatio: '21:9' },
];
const fullHd: readonly RunwayRatio[] = [
  { size: '1920x1080', resolution: '1080p', aspectRatio: '16:9' },
  { size: '1080x1920', resolution: '1080p', aspectRatio: '9:16' },
];

function variants(mode: Mode, ratios: readonly RunwayRatio[], seconds: readonly number[], usdPerSecond: string): VideoVariantConfig[] {
  return ratios.map((ratio) => ({ mode, resolution: ratio.resolution, aspect_ratio: ratio.aspectRatio, size: ratio.size, seconds: [...seconds], usd_per_second: usdPerSecond }));
}

function bothModes(ratios: readonly RunwayRatio[], seconds: readonly number[], usdPerSecond: string): VideoVariantConfig[] {
  return [...variants('text-to-video', ratios, seconds, usdPerSecond), ...variants('image-to-video', ratios, seconds, usdPerSecond)];
}

/** Gen-4.5 takes "an integer from 2 to 10". */
const twoToTen = [2, 3, 4, 5, 6, 7, 8, 9, 10];
/**
 * Gen-4 Turbo's `duration` is only "a number" in Runway's current reference; 5 and 10 are the
 * lengths it has always taken, so only those are sold.
 */
const gen4TurboLengths = [5, 10];
const veoLengths = [4, 6, 8];
/** Veo makes 1080p at eight seconds (Google's own rule); Runway's reference does not say otherwise, so no more is sold. */
const veoFullHdLengths = [8];

/**
 * Runway's data URIs must stay under 5 MiB as text (https://docs.dev.runwayml.com/assets/inputs):
 * the largest image whose base64, with the longest media type prefix (`data:image/webp;base64,`),
 * still fits. A larger first frame is refused before the job is taken.
 */
const runwayMaxInputReferenceBytes = Math.floor((5 * 1024 * 1024 - 'data:image/webp;base64,'.length - 1) / 4) * 3;

/**
 * Runway's video models, by the ids its API takes, with the `ratio` and `duration` values each
 * accepts (Runway's API reference, as its SDK 4.20.1 types it). Prices: Runway bills credits at
 * $0.01 (Gen-4.5 12 credits a second, Gen-4 Turbo 5, Veo 3.1 40 with audio, Veo 3.1 Fast 15 with
 * audio); the date is when they were read.
 */
export const runwayVideoRecords: Readonly<Record<string, BuiltinVideoRecord>> = {
  'gen4.5': {
    ownedBy: 'runway',
    effectiveFrom: '2026-11-27',
    remix: false,
    // Text to video takes only the two 720p frames; image to video all six.
    variants: [...variants('text-to-video', [landscape, portrait], twoToTen, '0.12'), ...variants('image-to-video', gen4Frames, twoToTen, '0.12')],
    maxInputReferenceBytes: runwayMaxInputReferenceBytes,
  },
  gen4_turbo: {
    ownedBy: 'runway',
    effectiveFrom: '2026-11-27',
    remix: false,
    // Image to video only: Runway has no text-to-video Gen-4 Turbo.
    variants: variants('image-to-video', gen4Frames, gen4TurboLengths, '0.05'),
    maxInputReferenceBytes: runwayMaxInputReferenceBytes,
  },
  'veo3.1': {
    ownedBy: 'google',
    effectiveFrom: '2026-11-27',
    remix: false,
    variants: [...bothModes([landscape, portrait], veoLengths, '0.40'), ...bothModes(fullHd, veoFullHdLengths, '0.40')],
    maxInputReferenceBytes: runwayMaxInputReferenceBytes,
  },
  'veo3.1_fast': {
    ownedBy: 'google',
    effectiveFrom: '2026-11-27',
    remix: false,
    variants: [...bothModes([landscape, portrait], veoLengths, '0.15'), ...bothModes(fullHd, veoFullHdLengths, '0.15')],
    maxInputReferenceBytes: runwayMaxInputReferenceBytes,
  },
};
