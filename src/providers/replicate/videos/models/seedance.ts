import { bothModes, firstFrame, secondsFrom, variantsAt, type ReplicateVideoModel } from '../replicate-video-model.js';

/**
 * Seedance on Replicate (replicate.com/bytedance/seedance-1-pro and seedance-1-lite, their
 * versions' API pages): `duration` an integer from 2 to 12, `resolution` 480p, 720p or 1080p,
 * `aspect_ratio` (16:9 by default, "Ignored if an image is used"), `image` for the first frame.
 * The pages show the aspect ratio's default only, not its other values: 16:9 is the one sold.
 */
const lengths = secondsFrom(2, 12);
const variants = ['480p', '720p', '1080p'].flatMap((resolution) => variantsAt(bothModes, resolution, ['16:9'], lengths));

function seedance(): ReplicateVideoModel {
  return {
    ownedBy: 'bytedance',
    variants,
    input: (request) => ({
      prompt: request.prompt,
      ...firstFrame('image', request),
      duration: request.seconds,
      resolution: request.resolution,
      aspect_ratio: request.aspectRatio,
    }),
  };
}

export const seedanceModels: Readonly<Record<string, ReplicateVideoModel>> = {
  'bytedance/seedance-1-pro': seedance(),
  'bytedance/seedance-1-lite': seedance(),
};
