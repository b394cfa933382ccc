import type { KnownVideoModel, RouteProblem, UpstreamTarget, VideoVariantShape } from '../../provider-adapter.js';

type Mode = VideoVariantShape['mode'];

/** The lengths one resolution of a model comes in, in seconds. */
type Lengths = Readonly<Record<string, readonly number[]>>;

/** What one MiniMax video model makes: per mode, each resolution (as the record writes it) and its lengths. */
export type HailuoModel = Readonly<Partial<Record<Mode, Lengths>>>;

/** Hailuo's newer models make 10-second videos at 768P only; 1080P is 6 seconds. */
const hailuoLengths: Lengths = { '768p': [6, 10], '1080p': [6] };
/** The 01 generation: 720P, 6 seconds. */
const firstGeneration: Lengths = { '720p': [6] };

/**
 * MiniMax's video models and what each makes (MiniMax's video generation reference, read through
 * its published mirrors: Hailuo-02 and 2.3 "6-second videos support 768P and 1080P, 10-second
 * videos only 768P"; 512P is offered for Hailuo-02's image-to-video; the 01 models are 720P,
 * 6 seconds; Hailuo-2.3-Fast is image-to-video only).
 */
export const hailuoModels: Readonly<Record<string, HailuoModel>> = {
  'MiniMax-Hailuo-2.3': { 'text-to-video': hailuoLengths, 'image-to-video': hailuoLengths },
  'MiniMax-Hailuo-2.3-Fast': { 'image-to-video': hailuoLengths },
  'MiniMax-Hailuo-02': { 'text-to-video': hailuoLengths, 'image-to-video': { '512p': [6, 10], ...hailuoLengths } },
  'T2V-01-Director': { 'text-to-video': firstGeneration },
  'T2V-01': { 'text-to-video': firstGeneration },
  'I2V-01-Director': { 'image-to-video': firstGeneration },
  'I2V-01': { 'image-to-video': firstGeneration },
  'I2V-01-live': { 'image-to-video': firstGeneration },
};

/** A model MiniMax may add later: any of its resolutions and lengths, in either mode, left to MiniMax to refuse. */
const unknownModel: HailuoModel = {
  'text-to-video': { '512p': [6, 10], '720p': [6, 10], '768p': [6, 10], '1080p': [6, 10] },
  'image-to-video': { '512p': [6, 10], '720p': [6, 10], '768p': [6, 10], '1080p': [6, 10] },
};

/**
 * Why MiniMax cannot make this variant of `model`, or undefined. MiniMax takes a resolution and a
 * length but no aspect ratio: text-to-video comes out 16:9, image-to-video in its first frame's
 * shape, so a variant of any other shape could not be delivered as sold.
 */
function outsideModel(variant: VideoVariantShape, model: string): string | undefined {
  const known = Object.hasOwn(hailuoModels, model) ? hailuoModels[model] : undefined;
  const lengths = (known ?? unknownModel)[variant.mode];
  if (lengths === undefined) return `MiniMax's ${model} does not make ${variant.mode}`;
  if (variant.aspectRatio !== '16:9') return 'MiniMax takes no aspect ratio: its videos are 16:9 (image-to-video follows the first frame)';
  const offered = Object.hasOwn(lengths, variant.resolution) ? lengths[variant.resolution] : undefined;
  if (offered === undefined) return `MiniMax's ${model} makes ${variant.mode} at ${Object.keys(lengths).join(', ')} only`;
  const missing = variant.seconds.filter((seconds) => !offered.includes(seconds));
  if (missing.length > 0) return `MiniMax's ${model} makes ${variant.resolution} ${variant.mode} of ${offered.join(' or ')} seconds only`;
  return undefined;
}

/** What a MiniMax route cannot make of the variants its model sells, each named on the route's `model`. */
export function checkHailuoRoute(target: UpstreamTarget, variants: readonly VideoVariantShape[]): RouteProblem[] {
  return variants.flatMap((variant) => {
    const problem = outsideModel(variant, target.model);
    return problem === undefined ? [] : [{ field: 'model', message: `${problem} (variant ${variant.mode} ${variant.resolution} ${variant.aspectRatio} at ${variant.seconds.join('/')} s)` }];
  });
}

/** The frame each Hailuo resolution means at 16:9 (768P is 1366 wide, as 768-line displays are). */
const hailuoSizes: Readonly<Record<string, string>> = { '512p': '912x512', '720p': '1280x720', '768p': '1366x768', '1080p': '1920x1080' };

/**
 * A MiniMax model the gateway knows as a model record: each mode and resolution it makes at 16:9
 * (MiniMax takes no aspect ratio; image-to-video follows its first frame). Unpriced: MiniMax's price
 * list was not at hand, so the operator prices each in the model's `price.per_second` (an unpriced
 * variant is not sold).
 */
export function knownHailuoModel(model: string): KnownVideoModel | undefined {
  const known = Object.hasOwn(hailuoModels, model) ? hailuoModels[model] : undefined;
  if (known === undefined) return undefined;
  const modes = (['text-to-video', 'image-to-video'] as const).filter((mode) => known[mode] !== undefined);
  const variants = modes.flatMap((mode) =>
    Object.entries(known[mode] ?? {}).map(([resolution, seconds]) => ({ mode, resolution, aspect_ratio: '16:9', size: hailuoSizes[resolution] ?? '1280x720', seconds: [...seconds] })),
  );
  return { ownedBy: 'minimax', effectiveFrom: '1970-01-01', remix: false, variants };
}

/** The resolution as MiniMax spells it (`768P`). */
export function hailuoResolution(resolution: string): string {
  return resolution.toUpperCase();
}
