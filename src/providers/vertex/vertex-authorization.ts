import type { GatewayError } from '../../errors/gateway-error.js';
import type { AuthorizationHeaders, ProviderAdapter, UpstreamTarget } from '../provider-adapter.js';
import { forgetVertexTokens, vertexCredentialsFor } from './vertex-credentials.js';
import { vertexSettings } from './vertex-endpoint.js';

const bearer = (token: string): AuthorizationHeaders => ({ authorization: `Bearer ${token}` });

/**
 * The OAuth2 bearer for a call to Vertex. A cached token is returned at once, so a call with one
 * pays no extra turn of the event loop; only a call that must wait for a new token awaits it.
 */
export function authorizeVertex(target: UpstreamTarget): AuthorizationHeaders | Promise<AuthorizationHeaders> {
  const settings = vertexSettings(target);
  if (settings.accessToken !== undefined) return bearer(settings.accessToken);
  const credentials = vertexCredentialsFor(settings.credentialsFile);
  const token = credentials.current();
  return token === undefined ? credentials.accessToken().then(bearer) : bearer(token);
}

/**
 * An error decoder that also drops the cached tokens when Vertex refuses one (401): a token revoked,
 * or expired early by a clock that disagrees, is then replaced by the next attempt instead of
 * failing every call until its planned refresh.
 */
export function forgettingRefusedTokens(decode: ProviderAdapter['decodeError']): ProviderAdapter['decodeError'] {
  return (status, bodyText, headers): GatewayError => {
    if (status === 401) forgetVertexTokens();
    return decode(status, bodyText, headers);
  };
}
