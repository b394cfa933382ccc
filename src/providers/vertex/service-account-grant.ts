import { createSign } from 'node:crypto';
import { GatewayError } from '../../errors/gateway-error.js';
import { isRecord } from '../../json/json-value.js';

/** The fields of a service account key file the JWT-bearer grant needs. */
export interface ServiceAccountKey {
  readonly clientEmail: string;
  readonly privateKey: string;
  readonly privateKeyId?: string;
  readonly tokenUri: string;
}

/** An access token and the instant (epoch milliseconds) it stops being accepted. */
export interface AccessToken {
  readonly token: string;
  readonly expiresAt: number;
}

/** Google's token endpoint, for a key file that names none (every file Google issues names it). */
const defaultTokenUri = 'https://oauth2.googleapis.com/token';
/** The longest assertion Google accepts is one hour. */
const assertionLifetimeSeconds = 3600;
const grantTimeoutMs = 15_000;

/** Reads a key file's JSON; undefined when it is not a service account key (ADC's other kinds). */
export function readServiceAccountKey(json: unknown): ServiceAccountKey | undefined {
  if (!isRecord(json) || json.type !== 'service_account') return undefined;
  const { client_email: clientEmail, private_key: privateKey, private_key_id: privateKeyId, token_uri: tokenUri } = json;
  if (typeof clientEmail !== 'string' || typeof privateKey !== 'string') {
    throw new GatewayError('internal_error', 'The Vertex AI service account key has no client_email or private_key.');
  }
  return {
    clientEmail,
    privateKey,
    ...(typeof privateKeyId === 'string' ? { privateKeyId } : {}),
    tokenUri: typeof tokenUri === 'string' && tokenUri !== '' ? tokenUri : defaultTokenUri,
  };
}

function base64Url(value: string | Buffer): string {
  return Buffer.from(value).toString('base64url');
}

/** The RS256-signed assertion of RFC 7523 §2.1, its audience the token endpoint it is posted to. */
export function signAssertion(key: ServiceAccountKey, scope: string, nowSeconds: number): string {
  const header = { alg: 'RS256', typ: 'JWT', ...(key.privateKeyId === undefined ? {} : { kid: key.privateKeyId }) };
  const claims = { iss: key.clientEmail, scope, aud: key.tokenUri, iat: nowSeconds, exp: nowSeconds + assertionLifetimeSeconds };
  const unsigned = `${base64Url(JSON.stringify(header))}.${base64Url(JSON.stringify(claims))}`;
  const signature = createSign('RSA-SHA256').update(unsigned).sign(key.privateKey);
  return `${unsigned}.${base64Url(signature)}`;
}

/**
 * Exchanges a signed assertion for an access token at the key's own `token_uri`. Signed here rather
 * than by google-auth-library, which posts every grant to Google's public endpoint whatever the key
 * file names, so a private or test token endpoint would never be reached.
 */
export async function requestServiceAccountToken(key: ServiceAccountKey, scope: string, now: () => number = Date.now): Promise<AccessToken> {
  const issuedAt = now();
  const form = new URLSearchParams({
    grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
    assertion: signAssertion(key, scope, Math.floor(issuedAt / 1000)),
  });
  let response: Response;
  try {
    response = await fetch(key.tokenUri, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
      signal: AbortSignal.timeout(grantTimeoutMs),
    });
  } catch (error) {
    throw new GatewayError('upstream_connect_failed', 'The Vertex AI token endpoint could not be reached.', { cause: error });
  }
  const text = await response.text();
  const body = parseJson(text);
  if (!response.ok) {
    // The endpoint's error names (invalid_grant, …) say what is wrong with the key; no token is in them.
    const reason = isRecord(body) && typeof body.error === 'string' ? `: ${body.error}` : '';
    throw new GatewayError('upstream_error', `The Vertex AI token endpoint refused the service account (HTTP ${response.status}${reason}).`, {
      upstreamStatus: response.status,
    });
  }
  if (!isRecord(body) || typeof body.access_token !== 'string' || typeof body.expires_in !== 'number') {
    throw new GatewayError('upstream_invalid_response', 'The Vertex AI token endpoint answered without an access token.');
  }
  return { token: body.access_token, expiresAt: issuedAt + body.expires_in * 1000 };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
