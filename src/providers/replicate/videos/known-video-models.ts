import type { VideoGenerationRequest } from '../../../ir/video-generation.js';
import type { KnownVideoVariant } from '../../provider-adapter.js';
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

function describe(variant: KnownVideoVariant): string {
  return `${variant.mode} ${variant.resolution} ${variant.aspectRatio}`;
}

/**
 * A configured variant a model's map cannot ask for: a mode, resolution or aspect ratio it has no
 * value for, or a length outside the ones its inputs take; or a model that is no Replicate model
 * reference at all. A model without a map is not checked further.
 */
export function replicateVariantRefusal(model: string, variant: KnownVideoVariant): string | undefined {
  try {
    parseReplicateModel(model);
  } catch (error) {
    return (error as Error).message;
  }
  const known = knownReplicateVideoModel(model);
  if (known === undefined) return undefined;
  const same = known.variants.filter((candidate) => candidate.mode === variant.mode && candidate.resolution === variant.resolution && candidate.aspectRatio === variant.aspectRatio);
  const sold = known.variants.map((candidate) => `${describe(candidate)} (${candidate.seconds.join('/')} s)`).join('; ');
  if (same.length === 0) return `Replicate's ${model} cannot be asked for ${describe(variant)}; its inputs can express: ${sold}`;
  const lengths = new Set(same.flatMap((candidate) => candidate.seconds));
  const outside = variant.seconds.filter((seconds) => !lengths.has(seconds));
  if (outside.length > 0) return `Replicate's ${model} makes ${describe(variant)} videos of ${[...lengths].join('/')} seconds, not ${outside.join('/')}`;
  const size = same.find((candidate) => candidate.size !== undefined)?.size;
  if (variant.size !== undefined && size !== undefined && variant.size !== size) return `Replicate's ${model} renders ${describe(variant)} at ${size}, not ${variant.size}`;
  return undefined;
}
