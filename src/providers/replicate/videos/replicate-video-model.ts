import type { VideoGenerationRequest, VideoInputReference, VideoMode } from '../../../ir/video-generation.js';

/** One combination a video model makes through its map: mode × resolution × aspect ratio, at these lengths. */
export interface KnownVideoVariant {
  readonly mode: VideoMode;
  readonly resolution: string;
  readonly aspectRatio: string;
  /** Its `WxH` where that is not what the resolution and aspect ratio mean (480p 16:9 rendered at 832x480). */
  readonly size?: string;
  readonly seconds: readonly number[];
}

/**
 * A video model on Replicate with a built-in input map: the variants its documented inputs can
 * ask for, and the prediction `input` for a request of one of them. Data, one file per model
 * family, so a route-level map can later share the same shape.
 */
export interface ReplicateVideoModel {
  readonly ownedBy: string;
  readonly variants: readonly KnownVideoVariant[];
  input(request: VideoGenerationRequest): Record<string, unknown>;
}

/** Every mode × aspect ratio at one resolution and set of lengths. */
export function variantsAt(modes: readonly VideoMode[], resolution: string, aspectRatios: readonly string[], seconds: readonly number[], sizes?: Readonly<Record<string, string>>): KnownVideoVariant[] {
  return modes.flatMap((mode) =>
    aspectRatios.map((aspectRatio) => {
      const size = sizes?.[aspectRatio];
      return { mode, resolution, aspectRatio, seconds, ...(size === undefined ? {} : { size }) };
    }),
  );
}

/** Whole seconds from `first` to `last`. */
export function secondsFrom(first: number, last: number): number[] {
  return Array.from({ length: last - first + 1 }, (_, index) => first + index);
}

/**
 * Replicate's file inputs take an HTTP URL or a data URL: a link the client gave goes on as it
 * is, an uploaded image as a data URL (no upload to Replicate's file store first).
 */
export function imageInput(reference: VideoInputReference): string {
  return 'url' in reference ? reference.url : `data:${reference.mediaType};base64,${Buffer.from(reference.bytes).toString('base64')}`;
}

/** `{ [field]: image }` when the request has a first frame, else nothing. */
export function firstFrame(field: string, request: VideoGenerationRequest): Record<string, string> {
  return request.inputReference === undefined ? {} : { [field]: imageInput(request.inputReference) };
}

export const bothModes: readonly VideoMode[] = ['text-to-video', 'image-to-video'];
