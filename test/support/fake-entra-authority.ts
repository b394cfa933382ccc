import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';

export interface FakeEntraAuthority {
  readonly url: string;
  /** Token requests received, in order (form fields of each). */
  readonly grants: Readonly<Record<string, string>>[];
  /** Whether a bearer token is one this authority issued and has not expired. */
  accepts(token: string): boolean;
  /** Tokens issued from now on live this long. */
  setLifetime(seconds: number): void;
  close(): Promise<void>;
}

export interface FakeEntraOptions {
  readonly tenantId: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** Lifetime of each token issued. */
  readonly expiresInSeconds: number;
  /** The clock tokens are issued and checked by (the test moves it on to make tokens expire). */
  readonly now?: () => number;
  /** Serve HTTPS with this key and certificate: Microsoft's libraries refuse an authority over HTTP. */
  readonly tls?: { readonly key: string | Buffer; readonly cert: string | Buffer };
}

/**
 * A Microsoft Entra ID token endpoint (`POST /{tenant}/oauth2/v2.0/token`) that issues client
 * credential tokens as the identity platform documents them: form-encoded `grant_type=
 * client_credentials`, `client_id`, `client_secret`, `scope`; answered with `token_type`,
 * `expires_in`, `access_token`, or a 401 `invalid_client` for a wrong secret. Each token is fresh
 * and expires, so a test can tell a renewed token from a held one.
 *
 * It also answers the OpenID configuration of an AD FS authority (`/adfs/.well-known/openid-
 * configuration`, token endpoint `/adfs/oauth2/token`), the form in which `@azure/identity` (MSAL)
 * reads an authority it does not know from its own metadata instead of asking Microsoft's
 * instance discovery, so the library itself can be pointed at this fake with
 * `AZURE_AUTHORITY_HOST` and `AZURE_TENANT_ID=adfs`.
 */
export async function startFakeEntraAuthority(options: FakeEntraOptions): Promise<FakeEntraAuthority> {
  const now = options.now ?? Date.now;
  let lifetimeSeconds = options.expiresInSeconds;
  const issued = new Map<string, number>();
  const grants: Record<string, string>[] = [];
  let origin = '';
  const tokenPaths = new Set([`/${options.tenantId}/oauth2/v2.0/token`, `/${options.tenantId}/oauth2/token`]);
  const handle = (incoming: IncomingMessage, outgoing: ServerResponse): void => {
    let body = '';
    incoming.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    incoming.on('end', () => {
      outgoing.setHeader('content-type', 'application/json');
      const path = (incoming.url ?? '').split('?')[0] ?? '';
      if (incoming.method === 'GET' && path === `/${options.tenantId}/.well-known/openid-configuration`) {
        const authority = `${origin}/${options.tenantId}`;
        outgoing.end(
          JSON.stringify({
            issuer: authority,
            token_endpoint: `${authority}/oauth2/token`,
            authorization_endpoint: `${authority}/oauth2/authorize`,
            end_session_endpoint: `${authority}/oauth2/logout`,
            jwks_uri: `${authority}/discovery/keys`,
          }),
        );
        return;
      }
      const form = Object.fromEntries(new URLSearchParams(body));
      grants.push(form);
      if (incoming.method !== 'POST' || !tokenPaths.has(path) || form.grant_type !== 'client_credentials') {
        outgoing.statusCode = 400;
        outgoing.end(JSON.stringify({ error: 'invalid_request', error_description: 'AADSTS900144: The request body must contain the following parameter: grant_type.' }));
        return;
      }
      if (form.client_id !== options.clientId || form.client_secret !== options.clientSecret) {
        outgoing.statusCode = 401;
        outgoing.end(JSON.stringify({ error: 'invalid_client', error_description: 'AADSTS7000215: Invalid client secret provided.' }));
        return;
      }
      const token = `entra-${randomUUID()}`;
      issued.set(token, now() + lifetimeSeconds * 1000);
      outgoing.end(JSON.stringify({ token_type: 'Bearer', expires_in: lifetimeSeconds, ext_expires_in: lifetimeSeconds, access_token: token }));
    });
  };
  const server: Server = options.tls === undefined ? createServer(handle) : createTlsServer(options.tls, handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `${options.tls === undefined ? 'http' : 'https'}://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: origin,
    grants,
    setLifetime: (seconds) => {
      lifetimeSeconds = seconds;
    },
    accepts: (token) => {
      const expiresAt = issued.get(token);
      return expiresAt !== undefined && now() < expiresAt;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The client credentials grant a confidential client makes (what `@azure/identity`'s
 * ClientSecretCredential sends), as a credential the gateway's Entra authorization can hold.
 */
export function clientCredentialsGrant(authority: string, tenantId: string, clientId: string, clientSecret: string, now: () => number = Date.now) {
  return {
    async getToken(scope: string) {
      const response = await fetch(`${authority}/${tenantId}/oauth2/v2.0/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret, scope }).toString(),
      });
      const body = (await response.json()) as { access_token?: string; expires_in?: number; error_description?: string };
      if (!response.ok || body.access_token === undefined) throw new Error(body.error_description ?? `token endpoint answered ${response.status}`);
      return { token: body.access_token, expiresOnTimestamp: now() + (body.expires_in ?? 0) * 1000 };
    },
  };
}
