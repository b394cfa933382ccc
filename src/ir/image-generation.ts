import type { IrError } from './stream-event.js';
import type { Usage } from './usage.js';

/** An image given with a request: the pictures to edit, or the mask that says where. */
export interface ImageInput {
  readonly bytes: Uint8Array;
  readonly mediaType: string;
  readonly filename: string;
}

export type ImageOutputFormat = 'png' | 'jpeg' | 'webp';

/**
 * A request to generate or edit images, in the terms of the model that serves it (a legacy
 * alias's parameters are already mapped). Checked against the model's rules before it gets here.
 */
export interface ImageGenerationRequest {
  readonly prompt: string;
  readonly n: number;
  /** `WxH`, or `auto`/absent where the model picks. */
  readonly size?: string;
  readonly quality?: string;
  readonly outputFormat?: ImageOutputFormat;
  readonly outputCompression?: number;
  readonly background?: string;
  readonly moderation?: string;
  readonly style?: string;
  readonly user?: string;
  /** Partial images to stream before each final one (0 when not streaming). */
  readonly partialImages: number;
  /** The images to edit; absent for a generation. */
  readonly inputImages?: readonly ImageInput[];
  readonly mask?: ImageInput;
}

export interface GeneratedImage {
  /** The image bytes, base64-encoded, as every upstream sends them. */
  readonly base64: string;
  readonly revisedPrompt?: string;
  /** Measured from the bytes where the gateway fetched them itself (an image job's result URL). */
  readonly width?: number;
  readonly height?: number;
  /** Megapixels the upstream says it billed for this image (BFL's `output_mp`), a decimal string. */
  readonly billedMegapixels?: string;
}

/** What an upstream produced, with the tier it reports having made (what `auto` turned into). */
export interface ImageGenerationResult {
  readonly images: readonly GeneratedImage[];
  readonly size?: string;
  readonly quality?: string;
  readonly outputFormat?: ImageOutputFormat;
  readonly background?: string;
  /** Token usage, where the upstream reports it (the gpt-image family does). */
  readonly usage?: Usage;
}

/**
 * One event of a streamed image call: a partial picture (0-based `partialIndex` within the image
 * being drawn), a finished image with what the upstream reports about it, or a failure.
 */
export type ImageStreamEvent =
  | { readonly type: 'partial-image'; readonly partialIndex: number; readonly base64: string }
  | { readonly type: 'image-completed'; readonly result: ImageGenerationResult }
  | { readonly type: 'error'; readonly error: IrError };

/**
 * An image job an upstream accepted. `pollUrl` is where the upstream says to ask about it, used as
 * given: it may name another host of the same vendor (the cluster that holds the job).
 */
export interface SubmittedImageJob {
  readonly upstreamJobId: string;
  readonly pollUrl?: string;
  /** Megapixels the upstream says the job's output bills for, when it says at submit (a decimal string). */
  readonly billedMegapixels?: string;
}

/**
 * What an upstream says about an image job when asked: still under way, or ready with the URLs of
 * its images (fetched at once: vendors' result URLs expire within minutes). A failed or refused
 * job is not a state: the adapter throws the client's error for it.
 */
export type UpstreamImageJobState =
  | { readonly status: 'pending' }
  | { readonly status: 'ready'; readonly imageUrls: readonly string[]; readonly revisedPrompt?: string };
