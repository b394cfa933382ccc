import type { VideoMode } from '../../../ir/video-generation.js';
import type { VideoInputMap } from '../../video-input-map.js';

/**
 * A video endpoint on fal the gateway knows by id: the fields its input takes (as an `input` map),
 * and the values each accepts. fal serves text- and image-to-video at separate endpoints, so each
 * endpoint makes one mode. Fields and values are those of fal's OpenAPI schemas (as generated
 * into `@fal-ai/client`'s `types/endpoints.ts`); a value the endpoint takes but the gateway cannot
 * sell as a variant (Veo's `4k`, `auto` aspect ratios) is left out.
 */
export interface FalVideoModel {
  readonly ownedBy: string;
  readonly mode: VideoMode;
  readonly input: VideoInputMap;
  readonly seconds: readonly number[];
  readonly aspectRatios: readonly string[];
  /** What the endpoint renders; one value where it takes no resolution field. */
  readonly resolutions: readonly string[];
  /** USD per second of output where fal's list price is known (with audio where audio is the default), and the date it was read. */
  readonly price?: { readonly usdPerSecond: string; readonly effectiveFrom: string };
}

const range = (first: number, last: number): number[] => Array.from({ length: last - first + 1 }, (_, index) => first + index);

const klingText: VideoInputMap = { prompt: '{prompt}', duration: '{seconds:string}', aspect_ratio: '{aspect_ratio}' };
const seedanceText: VideoInputMap = { prompt: '{prompt}', duration: '{seconds:string}', aspect_ratio: '{aspect_ratio}', resolution: '{resolution}' };
/** Veo on fal writes its lengths with a unit: `"8s"`. */
const veoText: VideoInputMap = { prompt: '{prompt}', duration: '{seconds}s', aspect_ratio: '{aspect_ratio}', resolution: '{resolution}' };
const threeRatios = ['16:9', '9:16', '1:1'];
const seedanceRatios = ['16:9', '9:16', '1:1', '21:9', '4:3', '3:4'];

/** Keyed by fal endpoint id, the route's `model`. */
export const falVideoModels: Readonly<Record<string, FalVideoModel>> = {
  // Kling's text-to-video endpoints take no resolution: Master and Pro render 1080p.
  // fal's model page: "$1.40 for 5s … every additional second $0.28".
  'fal-ai/kling-video/v2.1/master/text-to-video': {
    ownedBy: 'kuaishou',
    mode: 'text-to-video',
    input: klingText,
    seconds: [5, 10],
    aspectRatios: threeRatios,
    resolutions: ['1080p'],
    price: { usdPerSecond: '0.28', effectiveFrom: '2026-11-27' },
  },
  'fal-ai/kling-video/v2.5-turbo/pro/text-to-video': {
    ownedBy: 'kuaishou',
    mode: 'text-to-video',
    input: klingText,
    seconds: [5, 10],
    aspectRatios: threeRatios,
    resolutions: ['1080p'],
    price: { usdPerSecond: '0.07', effectiveFrom: '2026-11-27' },
  },
  'fal-ai/kling-video/v3/pro/text-to-video': {
    ownedBy: 'kuaishou',
    mode: 'text-to-video',
    input: klingText,
    seconds: range(3, 15),
    aspectRatios: threeRatios,
    resolutions: ['1080p'],
    price: { usdPerSecond: '0.168', effectiveFrom: '2026-11-27' },
  },
  'fal-ai/bytedance/seedance/v1/pro/text-to-video': { ownedBy: 'bytedance', mode: 'text-to-video', input: seedanceText, seconds: range(2, 12), aspectRatios: seedanceRatios, resolutions: ['480p', '720p', '1080p'] },
  'fal-ai/bytedance/seedance/v1/pro/image-to-video': {
    ownedBy: 'bytedance',
    mode: 'image-to-video',
    input: { ...seedanceText, image_url: '{input_reference}' },
    seconds: range(2, 12),
    aspectRatios: seedanceRatios,
    resolutions: ['480p', '720p', '1080p'],
  },
  'fal-ai/wan-25-preview/text-to-video': { ownedBy: 'alibaba', mode: 'text-to-video', input: seedanceText, seconds: [5, 10], aspectRatios: threeRatios, resolutions: ['480p', '720p', '1080p'] },
  // Hailuo-02 Standard takes no shape at all: 768p landscape.
  'fal-ai/minimax/hailuo-02/standard/text-to-video': { ownedBy: 'minimax', mode: 'text-to-video', input: { prompt: '{prompt}', duration: '{seconds:string}' }, seconds: [6, 10], aspectRatios: ['16:9'], resolutions: ['768p'] },
  'fal-ai/veo3.1': { ownedBy: 'google', mode: 'text-to-video', input: veoText, seconds: [4, 6, 8], aspectRatios: ['16:9', '9:16'], resolutions: ['720p', '1080p'], price: { usdPerSecond: '0.40', effectiveFrom: '2026-11-27' } },
  'fal-ai/veo3.1/fast': { ownedBy: 'google', mode: 'text-to-video', input: veoText, seconds: [4, 6, 8], aspectRatios: ['16:9', '9:16'], resolutions: ['720p', '1080p'] },
  'fal-ai/veo3.1/image-to-video': {
    ownedBy: 'google',
    mode: 'image-to-video',
    input: { ...veoText, image_url: '{input_reference}' },
    seconds: [4, 6, 8],
    aspectRatios: ['16:9', '9:16'],
    resolutions: ['720p', '1080p'],
    price: { usdPerSecond: '0.40', effectiveFrom: '2026-11-27' },
  },
};

/** The endpoint's entry, never an inherited property of the table. */
export function falVideoModel(endpointId: string): FalVideoModel | undefined {
  return Object.hasOwn(falVideoModels, endpointId) ? falVideoModels[endpointId] : undefined;
}
