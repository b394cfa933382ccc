import { apiRoot } from '../api-root.js';
import type { ProviderAdapter } from '../provider-adapter.js';
import { decodeReplicateError } from './decode-error.js';
import { replicateHeaders } from './replicate-endpoint.js';
import { replicateVideoGeneration } from './videos/replicate-video-generation.js';

/**
 * Replicate's HTTP API (`https://api.replicate.com/v1`, as replicate-javascript's `baseUrl`):
 * predictions with `Authorization: Bearer`. Video models run as jobs the worker polls.
 */
export const replicateAdapter: ProviderAdapter = {
  kind: 'replicate',
  apiRoot: apiRoot({ defaultBaseUrl: 'https://api.replicate.com/v1', pathOnOrigin: '/v1', credentialRequired: true }),
  upstreamHeaders: (target) => replicateHeaders(target),
  decodeError: decodeReplicateError,
  videos: replicateVideoGeneration,
};
