import { apiRoot } from '../api-root.js';
import type { ProviderAdapter } from '../provider-adapter.js';
import { decodeMiniMaxError } from './decode-error.js';
import { miniMaxHeaders } from './minimax-endpoint.js';
import { hailuoVideoGeneration } from './videos/hailuo-video-generation.js';

/**
 * MiniMax's own API (https://api.minimax.io, the international platform; the mainland one is
 * https://api.minimaxi.com, with keys of its own): Hailuo video jobs. A root pasted with `/v1` is
 * tolerated, since every path carries its version.
 */
export const miniMaxAdapter: ProviderAdapter = {
  kind: 'minimax',
  apiRoot: apiRoot({ defaultBaseUrl: 'https://api.minimax.io', pathOnOrigin: '', redundantSuffix: /\/v1$/, credentialRequired: true }),
  upstreamHeaders: (target) => miniMaxHeaders(target),
  decodeError: (status, bodyText) => decodeMiniMaxError(status, bodyText),
  videos: hailuoVideoGeneration,
};
