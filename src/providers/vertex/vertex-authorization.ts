import type { AuthorizationHeaders, UpstreamTarget } from '../provider-adapter.js';
import { vertexCredentialsFor } from './vertex-credentials.js';
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
 * Vertex refused the token a call to `target` bore (401): a token revoked, or expired early by a
 * clock that disagrees, is dropped so the next attempt asks for another instead of failing every
 * call until its planned refresh. Only that credential's token goes: providers with other key files
 * keep theirs.
 */
export function forgetRefusedVertexToken(target: UpstreamTarget): void {
  vertexCredentialsFor(vertexSettings(target).credentialsFile).forget();
}
