import { bothModes, firstFrame, variantsAt, type ReplicateVideoModel } from '../replicate-video-model.js';

/**
 * Veo 3 on Replicate (replicate.com/google/veo-3-fast, version 100a06f7's API page, and
 * google/veo-3): `aspect_ratio` (16:9 by default; "Ideal images are 16:9 or 9:16 and 1280x720 or
 * 720x1280"), `duration` 8, `resolution` 720p by default, `image` for the first frame,
 * `generate_audio` on by default. Only the documented values are sold: 720p, 16:9 and 9:16, 8 s.
 */
function veo3(): ReplicateVideoModel {
  return {
    ownedBy: 'google',
    variants: variantsAt(bothModes, '720p', ['16:9', '9:16'], [8]),
    input: (request) => ({
      prompt: request.prompt,
      ...firstFrame('image', request),
      aspect_ratio: request.aspectRatio,
      duration: request.seconds,
      resolution: request.resolution,
    }),
  };
}

export const veoModels: Readonly<Record<string, ReplicateVideoModel>> = { 'google/veo-3': veo3(), 'google/veo-3-fast': veo3() };
