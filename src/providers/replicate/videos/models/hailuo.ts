import { bothModes, firstFrame, variantsAt, type ReplicateVideoModel } from '../replicate-video-model.js';

/**
 * Hailuo on Replicate (replicate.com/minimax/hailuo-02-fast, version 7acaa557's API page, and
 * minimax/hailuo-02): `duration` 6 or 10, `prompt_optimizer`, `first_frame_image` ("the output
 * video will have the same aspect ratio as this image"). hailuo-02 adds `resolution`, 768p or
 * 1080p, 1080p at 6 seconds only; hailuo-02-fast has no resolution field and renders MiniMax's
 * 512p. No aspect ratio is asked: text to video is 16:9, and a first frame should be too.
 */
const lengths = [6, 10];

const hailuo02: ReplicateVideoModel = {
  ownedBy: 'minimax',
  variants: [...variantsAt(bothModes, '768p', ['16:9'], lengths), ...variantsAt(bothModes, '1080p', ['16:9'], [6])],
  input: (request) => ({ prompt: request.prompt, ...firstFrame('first_frame_image', request), duration: request.seconds, resolution: request.resolution }),
};

const hailuo02Fast: ReplicateVideoModel = {
  ownedBy: 'minimax',
  variants: variantsAt(bothModes, '512p', ['16:9'], lengths),
  input: (request) => ({ prompt: request.prompt, ...firstFrame('first_frame_image', request), duration: request.seconds }),
};

export const hailuoModels: Readonly<Record<string, ReplicateVideoModel>> = {
  'minimax/hailuo-02': hailuo02,
  'minimax/hailuo-02-fast': hailuo02Fast,
};
