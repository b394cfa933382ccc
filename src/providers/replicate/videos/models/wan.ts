import { variantsAt, type ReplicateVideoModel } from '../replicate-video-model.js';

/**
 * Wan on Replicate (replicate.com/wan-video/wan-2.2-t2v-fast, version 920bea47's API page): text
 * to video; `num_frames` 81 to 100 ("81 frames give the best results") at `frames_per_second`
 * 16 by default ("the pricing of this model is based on the video duration at 16 fps");
 * `resolution` 480p, where "16:9 corresponds to 832x480px, and 9:16 is 480x832px". Seconds are
 * frames at 16 per second: 5 s is the 81 frames the page recommends, 6 s is 96.
 */
const framesPerSecond = 16;
const sizes = { '16:9': '832x480', '9:16': '480x832' };

function framesFor(seconds: number): number {
  return Math.max(81, seconds * framesPerSecond);
}

const wan22TextToVideoFast: ReplicateVideoModel = {
  ownedBy: 'wan-video',
  variants: variantsAt(['text-to-video'], '480p', ['16:9', '9:16'], [5, 6], sizes),
  input: (request) => ({
    prompt: request.prompt,
    num_frames: framesFor(request.seconds),
    frames_per_second: framesPerSecond,
    resolution: request.resolution,
    aspect_ratio: request.aspectRatio,
  }),
};

export const wanModels: Readonly<Record<string, ReplicateVideoModel>> = { 'wan-video/wan-2.2-t2v-fast': wan22TextToVideoFast };
