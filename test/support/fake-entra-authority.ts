import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeEntraAuthority {
  readonly url: string;
  /** Token requests received, in order (form fields of each). */
  readonly grants: Readonly<Record<string, string>>[];
  /** Whether a bearer token is one this authority issued and has not expired. */
  accepts(token: string): boolean;
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
}

/**
 * A Microsoft Entra ID token endpoint (`POST /{tenant}/oauth2/v2.0/token`) that issues client
 * credential tokens as the identity platform documents them: form-encoded `grant_type=
 * client_credentials`, `client_id`, `client_secret`, `scope`; answered with `token_type`,
 * `expires_in`, `access_token`, or a 401 `invalid_client` for a wrong secret. Each token is fresh
 * and expires, so a test can tell a renewed token from a held one.
 */
export async function startFakeEntraAuthority(options: FakeEntraOptions): Promise<FakeEntraAuthority> {
  const now = options.now ?? Date.now;
  const issued = new Map<string, number>();
  const grants: Record<string, string>[] = [];
  const server: Server = createServer((incoming, outgoing) => {
    let body = '';
    incoming.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    incoming.on('end', () => {
      const form = Object.fromEntries(new URLSearchParams(body));
      grants.push(form);
      outgoing.setHeader('content-type', 'application/json');
      if (incoming.method !== 'POST' || incoming.url !== `/${options.tenantId}/oauth2/v2.0/token` || form.grant_type !== 'client_credentials') {
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
      issued.set(token, now() + options.expiresInSeconds * 1000);
      outgoing.end(JSON.stringify({ token_type: 'Bearer', expires_in: options.expiresInSeconds, ext_expires_in: options.expiresInSeconds, access_token: token }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    grants,
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
