import type { RouteProblem, UpstreamTarget, VideoVariantShape } from '../provider-adapter.js';
import { runwayRatio } from './build-runway-submit.js';

interface RunwayModelTakes {
  readonly textToVideo: readonly string[];
  readonly imageToVideo: readonly string[];
  readonly durations: readonly number[];
}

const gen4Ratios = ['1280:720', '720:1280', '1104:832', '960:960', '832:1104', '1584:672'];
const veoRatios = ['1280:720', '720:1280', '1080:1920', '1920:1080'];
const twoToTen = [2, 3, 4, 5, 6, 7, 8, 9, 10];

/**
 * The `ratio` and `duration` values Runway's API reference gives each model the gateway knows
 * (as `@runwayml/sdk` 4.20.1 types them). Gen-4 Turbo's `duration` is typed only as a number;
 * the 2–10 seconds of its siblings are assumed.
 */
const runwayModels: Readonly<Record<string, RunwayModelTakes>> = {
  'gen4.5': { textToVideo: ['1280:720', '720:1280'], imageToVideo: gen4Ratios, durations: twoToTen },
  gen4_turbo: { textToVideo: [], imageToVideo: gen4Ratios, durations: twoToTen },
  'veo3.1': { textToVideo: veoRatios, imageToVideo: veoRatios, durations: [4, 6, 8] },
  'veo3.1_fast': { textToVideo: veoRatios, imageToVideo: veoRatios, durations: [4, 6, 8] },
};

/** Why Runway's model cannot make one variant, or undefined. */
function outsideModel(takes: RunwayModelTakes, variant: VideoVariantShape, model: string): string | undefined {
  const ratios = variant.mode === 'text-to-video' ? takes.textToVideo : takes.imageToVideo;
  if (ratios.length === 0) return `Runway's ${model} makes no ${variant.mode}`;
  if (!ratios.includes(runwayRatio(variant.size))) {
    return `Runway's ${model} makes ${variant.mode} at ${ratios.map((ratio) => ratio.replace(':', 'x')).join(', ')}, not ${variant.size}`;
  }
  const lengths = variant.seconds.filter((seconds) => !takes.durations.includes(seconds));
  if (lengths.length > 0) return `Runway's ${model} makes videos of ${takes.durations.join(', ')} seconds, not ${lengths.join(', ')}`;
  return undefined;
}

/**
 * What a Runway route cannot make of the variants its model sells — a size that is not one of the
 * model's ratios in that mode, a length it does not take. A model Runway's reference was not read
 * for is left to Runway's own answer.
 */
export function checkRunwayRoute(target: UpstreamTarget, variants: readonly VideoVariantShape[]): RouteProblem[] {
  const takes = Object.hasOwn(runwayModels, target.model) ? runwayModels[target.model] : undefined;
  if (takes === undefined) return [];
  return variants.flatMap((variant) => {
    const problem = outsideModel(takes, variant, target.model);
    return problem === undefined ? [] : [{ field: 'model', message: `${problem} (variant ${variant.mode} ${variant.resolution} ${variant.aspectRatio})` }];
  });
}
