import { writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeTokenEndpoint, type FakeTokenEndpoint } from '../../../test/support/fake-vertex-token-endpoint.js';
import { createTestServiceAccount } from '../../../test/support/test-service-account.js';
import { cloudPlatformScope, createVertexCredentials } from './vertex-credentials.js';

const googleTokenUrl = 'https://oauth2.googleapis.com/token';
const opened: FakeTokenEndpoint[] = [];

async function tokenEndpoint(options: { readonly lifetimeSeconds?: number; readonly audience?: string } = {}): Promise<FakeTokenEndpoint> {
  const endpoint = await startFakeTokenEndpoint(options);
  opened.push(endpoint);
  return endpoint;
}

afterEach(async () => {
  await Promise.all(opened.splice(0).map((endpoint) => endpoint.close()));
});

describe('Vertex access tokens from a service account key', () => {
  it('posts the signed JWT-bearer grant to the token_uri the key file names and gets a live token', async () => {
    const endpoint = await tokenEndpoint();
    const account = createTestServiceAccount(endpoint.tokenUri);
    endpoint.trust(account.clientEmail, account.publicKey);

    const token = await createVertexCredentials({ credentialsFile: account.keyFile }).accessToken();

    expect(endpoint.issued).toEqual([token]);
    expect(endpoint.isLive(token)).toBe(true);
  });

  it('is refused by the token endpoint when the key is not the one it holds for the account', async () => {
    const endpoint = await tokenEndpoint();
    const account = createTestServiceAccount(endpoint.tokenUri);
    endpoint.trust(account.clientEmail, createTestServiceAccount(endpoint.tokenUri).publicKey);

    await expect(createVertexCredentials({ credentialsFile: account.keyFile }).accessToken()).rejects.toMatchObject({
      code: 'upstream_error',
      message: expect.stringContaining('invalid_grant') as string,
    });
    expect(endpoint.issued).toEqual([]);
  });

  it('reuses the token while it is fresh and shares one request among concurrent callers', async () => {
    const endpoint = await tokenEndpoint();
    const account = createTestServiceAccount(endpoint.tokenUri);
    endpoint.trust(account.clientEmail, account.publicKey);
    const credentials = createVertexCredentials({ credentialsFile: account.keyFile });

    expect(credentials.current()).toBeUndefined();
    const tokens = await Promise.all([credentials.accessToken(), credentials.accessToken(), credentials.accessToken()]);
    const again = await credentials.accessToken();

    expect(endpoint.upstream.calls()).toBe(1);
    expect(new Set([...tokens, again]).size).toBe(1);
    expect(credentials.current()).toBe(again);
  });

  it('asks for a new token before the old one expires, and not before', async () => {
    const endpoint = await tokenEndpoint({ lifetimeSeconds: 2 });
    const account = createTestServiceAccount(endpoint.tokenUri);
    endpoint.trust(account.clientEmail, account.publicKey);
    const credentials = createVertexCredentials({ credentialsFile: account.keyFile });

    const first = await credentials.accessToken();
    expect(await credentials.accessToken()).toBe(first);
    // A two-second token is renewed at half its life, so a call that starts with it never meets its end.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(credentials.current()).toBeUndefined();
    const second = await credentials.accessToken();

    expect(second).not.toBe(first);
    expect(endpoint.isLive(first)).toBe(true);
    expect(endpoint.issued).toEqual([first, second]);
  });

  it('asks again after a refused grant rather than remembering the failure', async () => {
    const endpoint = await tokenEndpoint();
    const account = createTestServiceAccount(endpoint.tokenUri);
    const credentials = createVertexCredentials({ credentialsFile: account.keyFile });

    await expect(credentials.accessToken()).rejects.toMatchObject({ code: 'upstream_error' });
    endpoint.trust(account.clientEmail, account.publicKey);

    expect(endpoint.isLive(await credentials.accessToken())).toBe(true);
  });

  it('reports a key file that is not JSON without its content', async () => {
    const endpoint = await tokenEndpoint();
    const account = createTestServiceAccount(endpoint.tokenUri);
    // A key pasted without its JSON around it: a JSON error would quote its first characters.
    writeFileSync(account.keyFile, 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASC');

    const failure = await createVertexCredentials({ credentialsFile: account.keyFile }).accessToken().catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 'internal_error', message: 'The Vertex AI credentials_file could not be read as JSON.' });
    expect(String((failure as Error).cause ?? '')).not.toContain('MIIEvQIBAD');
  });
});

describe('the fake token endpoint, driven by google-auth-library', () => {
  /** The library's JWT client for a key file, its token request rerouted from Google's endpoint to the fake. */
  async function libraryClient(keyFile: string, fakeUrl: string, seen: string[]) {
    const { GoogleAuth } = await import('google-auth-library');
    const client = await new GoogleAuth({ keyFilename: keyFile, scopes: [cloudPlatformScope] }).getClient();
    client.transporter.interceptors.request.add({
      resolved: (config) => {
        seen.push(String(config.url));
        if (String(config.url) === googleTokenUrl) config.url = new URL(fakeUrl);
        return Promise.resolve(config);
      },
    });
    return client;
  }

  it('verifies the grant the library signs and answers in a form the library takes', async () => {
    // The library signs for Google's endpoint whatever the key file says: the fake is told that is its name.
    const endpoint = await tokenEndpoint({ audience: googleTokenUrl });
    const account = createTestServiceAccount(endpoint.tokenUri);
    endpoint.trust(account.clientEmail, account.publicKey);
    const seen: string[] = [];

    const client = await libraryClient(account.keyFile, endpoint.tokenUri, seen);
    const { token } = await client.getAccessToken();

    expect(token).toBe(endpoint.issued[0]);
    expect(client.credentials.expiry_date).toBeGreaterThan(Date.now() + 3500_000);
  });

  it('shows the library posts to Google\'s endpoint, not the key file\'s token_uri', async () => {
    const endpoint = await tokenEndpoint();
    const account = createTestServiceAccount(endpoint.tokenUri);
    endpoint.trust(account.clientEmail, account.publicKey);
    const seen: string[] = [];

    const client = await libraryClient(account.keyFile, endpoint.tokenUri, seen);
    // Rerouted, the library's assertion names Google's endpoint as its audience: the fake refuses it.
    await expect(client.getAccessToken()).rejects.toThrow();

    expect(seen[0]).toBe(googleTokenUrl);
    expect(endpoint.issued).toEqual([]);
  });
});
