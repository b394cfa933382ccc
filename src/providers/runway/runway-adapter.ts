import { apiRoot } from '../api-root.js';
import type { ProviderAdapter } from '../provider-adapter.js';
import { decodeRunwayError } from './decode-error.js';
import { runwayHeaders } from './runway-headers.js';
import { runwayVideoGeneration } from './runway-video-generation.js';

/**
 * Runway's API: video generation tasks (Gen-4, Gen-4.5, Veo on Runway), with the key as a bearer
 * token and the API version on every call. Videos only: the gateway serves no other capability here.
 */
export const runwayAdapter: ProviderAdapter = {
  kind: 'runway',
  // The SDK's paths carry `/v1` themselves, so a root pasted with it is tolerated.
  apiRoot: apiRoot({ defaultBaseUrl: 'https://api.dev.runwayml.com', pathOnOrigin: '', redundantSuffix: /\/v1$/, credentialRequired: true }),
  upstreamHeaders: (target) => runwayHeaders(target),
  decodeError: decodeRunwayError,
  videos: runwayVideoGeneration,
};
