import type { KnownVideoModel, RouteProblem, UpstreamTarget, VideoVariantShape } from '../../provider-adapter.js';
import { checkInputMap } from '../../video-input-map.js';
import { falVideoModel, type FalVideoModel } from './fal-video-models.js';

/** A variant the known endpoint cannot be asked for: its mode, length, shape. */
function outsideEndpoint(model: FalVideoModel, variant: VideoVariantShape, endpointId: string): string | undefined {
  if (variant.mode !== model.mode) return `${endpointId} makes ${model.mode} only; a ${variant.mode} variant needs a route to fal's ${variant.mode} endpoint`;
  const lengths = variant.seconds.filter((seconds) => !model.seconds.includes(seconds));
  if (lengths.length > 0) return `${endpointId} makes videos of ${model.seconds.join('/')} s, not ${lengths.join('/')} s`;
  if (!model.aspectRatios.includes(variant.aspectRatio)) return `${endpointId} takes the aspect ratios ${model.aspectRatios.join(', ')}, not ${variant.aspectRatio}`;
  if (!model.resolutions.includes(variant.resolution)) return `${endpointId} renders ${model.resolutions.join(', ')}, not ${variant.resolution}`;
  return undefined;
}

/**
 * What a fal route cannot ask for of the variants its model sells. With an `input` map of its own,
 * the map must carry what the variants differ in (`checkInputMap`); an endpoint the gateway knows
 * is held to the values its schema accepts; any other endpoint needs a map, since fal's endpoints
 * each name their fields their own way.
 */
export function checkFalRoute(target: UpstreamTarget, variants: readonly VideoVariantShape[]): RouteProblem[] {
  if (target.input !== undefined) return checkInputMap(target.input, variants);
  const known = falVideoModel(target.model);
  if (known === undefined) {
    return [{ field: 'input', message: `the gateway has no built-in input map for the fal endpoint '${target.model}': give the route an input map naming the endpoint's fields (docs/configuration.md)` }];
  }
  return variants.flatMap((variant) => {
    const problem = outsideEndpoint(known, variant, target.model);
    return problem === undefined ? [] : [{ field: 'model', message: `${problem} (variant ${variant.mode} ${variant.resolution} ${variant.aspectRatio})` }];
  });
}

/** A known endpoint as a model record: every aspect ratio × resolution at its lengths, priced where fal's price is known. */
export function knownFalVideoModel(endpointId: string): KnownVideoModel | undefined {
  const model = falVideoModel(endpointId);
  if (model === undefined) return undefined;
  const variants = model.resolutions.flatMap((resolution) =>
    model.aspectRatios.map((aspectRatio) => ({
      mode: model.mode,
      resolution,
      aspect_ratio: aspectRatio,
      seconds: [...model.seconds],
      ...(model.price === undefined ? {} : { usd_per_second: model.price.usdPerSecond }),
    })),
  );
  return { ownedBy: model.ownedBy, effectiveFrom: model.price?.effectiveFrom ?? '2026-11-27', remix: false, variants };
}
