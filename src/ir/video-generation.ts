import type { ImageInput } from './image-generation.js';

export type VideoMode = 'text-to-video' | 'image-to-video';

/** The kinds of content a finished video job can have. */
export type VideoContentVariant = 'video' | 'thumbnail' | 'spritesheet';

/** The first frame of an image-to-video job: bytes the client sent, or a URL the upstream fetches. */
export type VideoInputReference = ImageInput | { readonly url: string };

/**
 * A video to make, in the terms of the one variant the gateway sold for it (checked against the
 * model record before it gets here).
 */
export interface VideoGenerationRequest {
  readonly prompt: string;
  readonly mode: VideoMode;
  /** Whole seconds, one of the variant's lengths. */
  readonly seconds: number;
  /** `WxH`, what OpenAI-shaped upstreams take. */
  readonly size: string;
  /** `720p`, what resolution-and-aspect upstreams take (Veo). */
  readonly resolution: string;
  /** `16:9`. */
  readonly aspectRatio: string;
  readonly inputReference?: VideoInputReference;
}

/** A failure as the gateway reports it on the job: a stable code and a readable message. */
export interface VideoJobFailure {
  readonly code: string;
  readonly message: string;
}

/**
 * What an upstream says about a job when asked. Content is downloaded from the URLs a completed
 * state names, with the provider's own credentials; they never reach a client.
 */
export type UpstreamVideoState =
  | {
      readonly status: 'queued' | 'in_progress';
      /** 0–100 when the upstream reports one; absent when it does not (Veo). */
      readonly progress?: number;
      /** How long the upstream asks to wait before the next poll, when it says. */
      readonly pollAfterMs?: number;
    }
  | {
      readonly status: 'completed';
      /** The length the upstream says it rendered, when it says. */
      readonly seconds?: number;
      /** Where each variant can be downloaded; `video` is always there. */
      readonly downloads: { readonly video: string } & Partial<Record<Exclude<VideoContentVariant, 'video'>, string>>;
    }
  | { readonly status: 'failed'; readonly error: VideoJobFailure }
  | {
      /**
       * The upstream is done, but says how only when asked again: its outcome is read with the
       * adapter's `result` call (fal's `response_url`, which answers the video or the failure;
       * MiniMax's file retrieval, which answers the video's link).
       */
      readonly status: 'finished';
      /** What the result call asks about where it is not the job's own id (MiniMax's file id). */
      readonly resultId?: string;
    };

/** The upstream's answer to a submit (or a remix): its id for the job, and its state when told. */
export interface SubmittedVideoJob {
  readonly upstreamJobId: string;
  readonly state?: UpstreamVideoState;
}
