import { apiRoot } from '../api-root.js';
import type { ProviderAdapter } from '../provider-adapter.js';
import { decodeFalError } from './decode-fal-error.js';
import { falVideoGeneration } from './videos/fal-video-generation.js';

/**
 * fal's queue API (`queue.fal.run`): video models of many vendors, each at its endpoint id, each
 * with its own input fields. No text.
 */
export const falAdapter: ProviderAdapter = {
  kind: 'fal',
  apiRoot: apiRoot({ defaultBaseUrl: 'https://queue.fal.run', pathOnOrigin: '/fal', credentialRequired: true }),
  // Used only for downloads, and fal's CDN serves its files to anyone holding the link: fal's key
  // is for the queue, so it is not sent there. Every queue call carries it (fal-headers.ts).
  upstreamHeaders: (target) => ({ ...(target.headers ?? {}) }),
  decodeError: decodeFalError,
  videos: falVideoGeneration,
};
