import type { VideoGenerationRequest } from '../../../ir/video-generation.js';
import type { KnownVideoModel, RouteProblem, UpstreamTarget, VideoVariantShape } from '../../provider-adapter.js';
import { parseReplicateModel, replicateModelName } from '../replicate-model-ref.js';
import { hailuoModels } from './models/hailuo.js';
import { klingModels } from './models/kling.js';
import { seedanceModels } from './models/seedance.js';
import { veoModels } from './models/veo.js';
import { wanModels } from './models/wan.js';
import { firstFrame, type ReplicateVideoModel } from './replicate-video-model.js';

const knownModels: Readonly<Record<string, ReplicateVideoModel>> = { ...klingModels, ...seedanceModels, ...wanModels, ...hailuoModels, ...veoModels };

/** The built-in input map of a route's model (`owner/name`, or one of its versions), if it has one. */
export function knownReplicateVideoModel(model: string): ReplicateVideoModel | undefined {
  const name = replicateModelName(model);
  return name !== undefined && Object.hasOwn(knownModels, name) ? knownModels[name] : undefined;
}

/**
 * A model without a built-in map (a community model, a bare version id) gets the field names most
 * of Replicate's video models share: `prompt`, `duration`, `aspect_ratio`, `resolution`, `image`.
 */
function commonInput(request: VideoGenerationRequest): Record<string, unknown> {
  return { prompt: request.prompt, ...firstFrame('image', request), duration: request.seconds, aspect_ratio: request.aspectRatio, resolution: request.resolution };
}

/** The prediction `input` of a request, by the model's own map or the common field names. */
export function replicateVideoInput(model: string, request: VideoGenerationRequest): Record<string, unknown> {
  return (knownReplicateVideoModel(model)?.input ?? commonInput)(request);
}

function describe(variant: { readonly mode: string; readonly resolution: string; readonly aspectRatio: string }): string {
  return `${variant.mode} ${variant.resolution} ${variant.aspectRatio}`;
}

/** Why the model's map cannot ask for one variant, or undefined when it can. */
function outsideMap(model: string, known: ReplicateVideoModel, variant: VideoVariantShape): string | undefined {
  const same = known.variants.filter((candidate) => candidate.mode === variant.mode && candidate.resolution === variant.resolution && candidate.aspectRatio === variant.aspectRatio);
  const sold = known.variants.map((candidate) => `${describe(candidate)} (${candidate.seconds.join('/')} s)`).join('; ');
  if (same.length === 0) return `Replicate's ${model} cannot be asked for ${describe(variant)}; its inputs can express: ${sold}`;
  const lengths = new Set(same.flatMap((candidate) => candidate.seconds));
  const outside = variant.seconds.filter((seconds) => !lengths.has(seconds));
  if (outside.length > 0) return `Replicate's ${model} makes ${describe(variant)} videos of ${[...lengths].join('/')} seconds, not ${outside.join('/')}`;
  const size = same.find((candidate) => candidate.size !== undefined)?.size;
  if (size !== undefined && variant.size !== size) return `Replicate's ${model} renders ${describe(variant)} at ${size}, not ${variant.size}`;
  return undefined;
}

/**
 * What a Replicate route cannot ask for of the variants its model sells: a model that is no
 * Replicate model reference at all, or a mode, resolution, aspect ratio or length its built-in map
 * has no value for. A model without a map is not checked further (the common field names apply).
 */
export function checkReplicateRoute(target: UpstreamTarget, variants: readonly VideoVariantShape[]): RouteProblem[] {
  try {
    parseReplicateModel(target.model);
  } catch (error) {
    return [{ field: 'model', message: (error as Error).message }];
  }
  const known = knownReplicateVideoModel(target.model);
  if (known === undefined) return [];
  return variants.flatMap((variant) => {
    const problem = outsideMap(target.model, known, variant);
    return problem === undefined ? [] : [{ field: 'model', message: problem }];
  });
}

/** A model with a built-in map as a model record: the variants the map can ask for, unpriced (the config prices what is sold). */
export function knownReplicateModelRecord(model: string): KnownVideoModel | undefined {
  const known = knownReplicateVideoModel(model);
  if (known === undefined) return undefined;
  const variants = known.variants.map((variant) => ({
    mode: variant.mode,
    resolution: variant.resolution,
    aspect_ratio: variant.aspectRatio,
    ...(variant.size === undefined ? {} : { size: variant.size }),
    seconds: [...variant.seconds],
  }));
  return { ownedBy: known.ownedBy, effectiveFrom: '1970-01-01', remix: false, variants };
}
