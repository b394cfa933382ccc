import { firstFrame, variantsAt, type ReplicateVideoModel } from '../replicate-video-model.js';

/**
 * Kling on Replicate (replicate.com/kwaivgi/kling-v2.1, its version's API page): image to video
 * only ("You must use a start image with kling-v2.1"); `mode` standard renders 720p and pro
 * 1080p ("Both are 24fps"); `duration` 5 or 10. The model takes no aspect ratio: the start image
 * sets the frame, so the variants name Kling's three (16:9, 9:16, 1:1) as the image the client sends.
 */
const klingAspectRatios = ['16:9', '9:16', '1:1'];
const lengths = [5, 10];

const klingV21: ReplicateVideoModel = {
  ownedBy: 'kwaivgi',
  variants: [...variantsAt(['image-to-video'], '720p', klingAspectRatios, lengths), ...variantsAt(['image-to-video'], '1080p', klingAspectRatios, lengths)],
  input: (request) => ({
    prompt: request.prompt,
    ...firstFrame('start_image', request),
    mode: request.resolution === '1080p' ? 'pro' : 'standard',
    duration: request.seconds,
  }),
};

export const klingModels: Readonly<Record<string, ReplicateVideoModel>> = { 'kwaivgi/kling-v2.1': klingV21 };
