import { shortestLength, type SellableVariant } from '../../catalog/sellable-variants.js';
import { GatewayError } from '../../errors/gateway-error.js';
import type { VideoMode } from '../../ir/video-generation.js';
import type { ClientVideoRequest } from './client-video-request.js';

/** What a submit bought: one sold variant at one of its lengths. */
export interface SelectedVariant {
  readonly variant: SellableVariant;
  readonly seconds: number;
}

function describe(variant: SellableVariant): string {
  return `${variant.mode} ${variant.resolution} ${variant.aspectRatio} (${variant.size}) for ${variant.seconds.join('/')} s`;
}

function soldList(variants: readonly SellableVariant[]): string {
  return variants.map(describe).join('; ');
}

function modeOf(request: ClientVideoRequest): VideoMode {
  const mode = request.mode ?? (request.inputReference === undefined ? 'text-to-video' : 'image-to-video');
  if (mode === 'image-to-video' && request.inputReference === undefined) {
    throw new GatewayError('missing_field', "Mode 'image-to-video' needs an input_reference image.", { param: 'input_reference' });
  }
  if (mode === 'text-to-video' && request.inputReference !== undefined) {
    throw new GatewayError('invalid_field', "An input_reference makes an image-to-video job; mode 'text-to-video' takes none.", { param: 'mode' });
  }
  return mode;
}

/** The field a wrong shape is blamed on: the one the client used to name it. */
function shapeParam(request: ClientVideoRequest): string {
  if (request.size !== undefined) return 'size';
  if (request.resolution !== undefined) return 'resolution';
  if (request.aspectRatio !== undefined) return 'aspect_ratio';
  return 'mode';
}

function matchesShape(variant: SellableVariant, request: ClientVideoRequest): boolean {
  if (request.size !== undefined && variant.size !== request.size) return false;
  if (request.resolution !== undefined && variant.resolution !== request.resolution) return false;
  if (request.aspectRatio !== undefined && variant.aspectRatio !== request.aspectRatio) return false;
  return true;
}

/**
 * The one variant a submit selects among those the model sells: mode (from `input_reference` when
 * not given), `size` or `resolution` + `aspect_ratio`, and `seconds`. Anything else is a 400 that
 * lists what is sold, before any upstream is called. Left out, the shape is the first sold variant
 * of the mode and the length its shortest (`defaultVariant`, which `/v1/videos/models` publishes).
 */
export function selectVideoVariant(modelId: string, sold: readonly SellableVariant[], request: ClientVideoRequest): SelectedVariant {
  const mode = modeOf(request);
  const ofMode = sold.filter((variant) => variant.mode === mode);
  if (ofMode.length === 0) {
    throw new GatewayError('invalid_field', `The model '${modelId}' does not sell ${mode}. Sold variants: ${soldList(sold)}.`, { param: 'mode' });
  }
  const variant = ofMode.find((candidate) => matchesShape(candidate, request));
  if (variant === undefined) {
    const asked = [request.size, request.resolution, request.aspectRatio].filter((part) => part !== undefined).join(' ');
    throw new GatewayError('invalid_field', `The model '${modelId}' does not sell ${mode} at ${asked}. Sold variants: ${soldList(sold)}.`, { param: shapeParam(request) });
  }
  const seconds = request.seconds ?? shortestLength(variant);
  if (!variant.seconds.includes(seconds)) {
    throw new GatewayError(
      'invalid_field',
      `The model '${modelId}' makes ${describe(variant).replace(/ for .*$/, '')} videos of ${variant.seconds.join(', ')} seconds, not ${seconds}. Sold variants: ${soldList(sold)}.`,
      { param: 'seconds' },
    );
  }
  return { variant, seconds };
}
