import type { FakeTokenEndpoint } from './fake-vertex-token-endpoint.js';
import { json, startScriptedUpstream, type Reply, type ScriptedUpstream } from './scripted-upstream/index.js';

const flavor = { 'metadata-flavor': 'Google' };

/**
 * A Compute Engine metadata server as Application Default Credentials meet it on a Google Cloud
 * machine (reached with `GCE_METADATA_HOST`): it answers only requests that carry
 * `Metadata-Flavor: Google`, with that header on its answers, and hands out the default service
 * account's access tokens, minted by the fake token endpoint so the fake Vertex takes them.
 */
export async function startFakeGceMetadata(tokens: FakeTokenEndpoint, project: string): Promise<ScriptedUpstream> {
  return startScriptedUpstream({
    reply: (request): Reply => {
      if (request.headers['metadata-flavor'] !== 'Google') return { status: 403, headers: flavor, contentType: 'text/html', body: 'Missing Metadata-Flavor:Google header.' };
      const path = request.path.split('?')[0];
      if (path === '/computeMetadata/v1/instance' || path === '/computeMetadata/v1/instance/') return { headers: flavor, contentType: 'application/text', body: '' };
      if (path === '/computeMetadata/v1/project/project-id') return { headers: flavor, contentType: 'application/text', body: project };
      if (path === '/computeMetadata/v1/instance/service-accounts/default/token') {
        const { token, lifetimeSeconds } = tokens.issue();
        return { ...json({ access_token: token, expires_in: lifetimeSeconds, token_type: 'Bearer' }), headers: flavor };
      }
      return { status: 404, headers: flavor, contentType: 'text/html', body: 'Not found' };
    },
  });
}
