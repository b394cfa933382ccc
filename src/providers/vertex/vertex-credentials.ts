import { readFile } from 'node:fs/promises';
import { GatewayError } from '../../errors/gateway-error.js';
import { readServiceAccountKey, requestServiceAccountToken, type AccessToken } from './service-account-grant.js';

/** The one scope Vertex AI's REST API takes. */
export const cloudPlatformScope = 'https://www.googleapis.com/auth/cloud-platform';

/** Google's libraries refresh five minutes before expiry; shorter-lived tokens at half their life. */
const refreshMarginMs = 5 * 60_000;

/** Where a provider's access tokens come from: a key file, or Application Default Credentials. */
export interface VertexCredentialOptions {
  readonly credentialsFile?: string;
  /** The clock, for tests that prove the refresh. */
  readonly now?: () => number;
}

/** Access tokens for one credential, cached until shortly before they expire. */
export interface VertexCredentials {
  /** The cached token while it is fresh, so a call with one pays no extra turn of the event loop. */
  current(): string | undefined;
  /** A fresh token; concurrent callers share one request for it. */
  accessToken(): Promise<string>;
  /** Vertex refused the cached token (revoked, or the clocks disagree): the next call asks for another. */
  forget(): void;
}

type TokenSource = () => Promise<AccessToken>;

export function createVertexCredentials(options: VertexCredentialOptions = {}): VertexCredentials {
  const now = options.now ?? Date.now;
  const source = tokenSource(options.credentialsFile, now);
  let cached: { readonly token: AccessToken; readonly refreshAt: number } | undefined;
  let pending: Promise<string> | undefined;

  const current = (): string | undefined => (cached !== undefined && now() < cached.refreshAt ? cached.token.token : undefined);

  function refresh(): Promise<string> {
    const requestedAt = now();
    const request = source().then(
      (token) => {
        const lifetime = token.expiresAt - requestedAt;
        cached = { token, refreshAt: token.expiresAt - Math.min(refreshMarginMs, lifetime / 2) };
        pending = undefined;
        return token.token;
      },
      (error: unknown) => {
        // A failed request is not remembered: the next call asks again.
        pending = undefined;
        throw error;
      },
    );
    pending = request;
    return request;
  }

  return {
    current,
    accessToken: () => {
      const fresh = current();
      if (fresh !== undefined) return Promise.resolve(fresh);
      return pending ?? refresh();
    },
    forget: () => {
      cached = undefined;
    },
  };
}

function tokenSource(credentialsFile: string | undefined, now: () => number): TokenSource {
  if (credentialsFile === undefined) return applicationDefaultToken(undefined, now);
  let keySource: Promise<TokenSource> | undefined;
  return () => {
    // The file is read once, on the first call, so a gateway starts without touching it.
    keySource ??= readKeySource(credentialsFile, now);
    keySource.catch(() => { keySource = undefined; });
    return keySource.then((source) => source());
  };
}

async function readKeySource(credentialsFile: string, now: () => number): Promise<TokenSource> {
  let text: string;
  try {
    text = await readFile(credentialsFile, 'utf8');
  } catch (error) {
    throw new GatewayError('internal_error', 'The Vertex AI credentials_file could not be read.', { cause: error });
  }
  let json: unknown;
  try {
    json = JSON.parse(text) as unknown;
  } catch {
    // No cause: a JSON error quotes the text around the fault, which here is a private key.
    throw new GatewayError('internal_error', 'The Vertex AI credentials_file could not be read as JSON.');
  }
  const key = readServiceAccountKey(json);
  if (key !== undefined) return () => requestServiceAccountToken(key, cloudPlatformScope, now);
  // Another kind of key file (authorized user, workload identity federation): the library knows them.
  return applicationDefaultToken(credentialsFile, now);
}

/**
 * Tokens through google-auth-library (loaded on first use: it is large, and most gateways never
 * call Vertex): Application Default Credentials, or a key file of a kind other than a service account.
 */
function applicationDefaultToken(keyFilename: string | undefined, now: () => number): TokenSource {
  let client: Promise<{ getAccessToken(): Promise<{ token?: string | null }>; credentials: { expiry_date?: number | null } }> | undefined;
  return async () => {
    client ??= import('google-auth-library').then(({ GoogleAuth }) =>
      new GoogleAuth({ scopes: [cloudPlatformScope], ...(keyFilename === undefined ? {} : { keyFilename }) }).getClient(),
    );
    let token: string | null | undefined;
    let expiresAt: number | null | undefined;
    try {
      const authClient = await client;
      token = (await authClient.getAccessToken()).token;
      expiresAt = authClient.credentials.expiry_date;
    } catch (error) {
      client = undefined;
      throw new GatewayError('upstream_error', 'No Vertex AI access token could be had from Application Default Credentials.', { cause: error });
    }
    if (typeof token !== 'string' || token === '') {
      throw new GatewayError('upstream_error', 'Application Default Credentials gave no Vertex AI access token.');
    }
    // A source that reports no expiry is asked again after a minute.
    return { token, expiresAt: typeof expiresAt === 'number' ? expiresAt : now() + 60_000 };
  };
}

const sharedCredentials = new Map<string, VertexCredentials>();

/** One cache per credential across the gateway, so every provider using the same key file shares its token. */
export function vertexCredentialsFor(credentialsFile: string | undefined): VertexCredentials {
  const key = credentialsFile ?? '';
  let credentials = sharedCredentials.get(key);
  if (credentials === undefined) {
    credentials = createVertexCredentials(credentialsFile === undefined ? {} : { credentialsFile });
    sharedCredentials.set(key, credentials);
  }
  return credentials;
}
