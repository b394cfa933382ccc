import { apiRoot } from '../api-root.js';
import type { ApiRoot } from '../provider-adapter.js';
import { vertexBaseUrl } from './vertex-endpoint.js';

/**
 * Vertex's root depends on the provider's location, so it has no single default: the catalog asks
 * the root at the provider's location for an unconfigured one. A root pasted with `/v1` is
 * tolerated. Calls are authorized by OAuth2 (a key file or Application Default Credentials),
 * never by an API key.
 */
export const vertexApiRoot: ApiRoot = {
  ...apiRoot({ pathOnOrigin: '', redundantSuffix: /\/v1$/, credentialRequired: false }),
  defaultBaseUrlAt: vertexBaseUrl,
};
