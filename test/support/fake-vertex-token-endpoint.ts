import { createVerify, randomBytes, type KeyObject } from 'node:crypto';
import { json, startScriptedUpstream, type Reply, type ScriptedUpstream } from './scripted-upstream/index.js';
import type { ReceivedRequest } from './scripted-upstream/index.js';

/** Google's token endpoint as a JWT-bearer grant meets it: the assertion checked, a short-lived token issued. */
export interface FakeTokenEndpoint {
  /** The `token_uri` a key file names. */
  readonly tokenUri: string;
  readonly upstream: ScriptedUpstream;
  /** Tokens issued so far, in order. */
  readonly issued: readonly string[];
  /** Whether `token` was issued here and has not expired or been revoked. */
  isLive(token: string): boolean;
  /** Revokes a token before its expiry, as revoking a key or a token at Google does. */
  revoke(token: string): void;
  /** A token issued without a grant, as Google issues one to a machine's metadata server. */
  issue(): { readonly token: string; readonly lifetimeSeconds: number };
  /** Trusts a service account's public key, as Google holds the public half of each key it issues. */
  trust(clientEmail: string, publicKey: KeyObject): void;
  close(): Promise<void>;
}

const scope = 'https://www.googleapis.com/auth/cloud-platform';

/** Google's own answer to a grant it refuses (RFC 6749 §5.2). */
const refused = (description: string): Reply => json({ error: 'invalid_grant', error_description: description }, 400);

function decodeSegment(segment: string | undefined): Record<string, unknown> | undefined {
  if (segment === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `audience`: the URL the endpoint takes itself to be, which a grant's `aud` must name; by default
 * its own address (a key file's `token_uri`).
 */
export async function startFakeTokenEndpoint(options: { readonly lifetimeSeconds?: number; readonly audience?: string } = {}): Promise<FakeTokenEndpoint> {
  const lifetimeSeconds = options.lifetimeSeconds ?? 3600;
  const keys = new Map<string, KeyObject>();
  const expiries = new Map<string, number>();
  const issued: string[] = [];
  let tokenUri = '';

  function grant(request: ReceivedRequest): Reply {
    if (request.method !== 'POST' || !request.path.startsWith('/token')) return json({ error: 'not_found' }, 404);
    const form = new URLSearchParams(request.body);
    if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer') return json({ error: 'unsupported_grant_type' }, 400);
    const [headerPart, claimsPart, signaturePart] = (form.get('assertion') ?? '').split('.');
    const header = decodeSegment(headerPart);
    const claims = decodeSegment(claimsPart);
    if (header?.alg !== 'RS256' || claims === undefined || signaturePart === undefined) return refused('Invalid JWT.');
    const publicKey = typeof claims.iss === 'string' ? keys.get(claims.iss) : undefined;
    if (publicKey === undefined) return refused('Invalid JWT Signature.');
    const signed = createVerify('RSA-SHA256').update(`${headerPart}.${claimsPart}`).verify(publicKey, Buffer.from(signaturePart, 'base64url'));
    if (!signed) return refused('Invalid JWT Signature.');
    if (claims.aud !== (options.audience ?? tokenUri)) return refused('Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp values in the JWT claim.');
    if (claims.scope !== scope) return refused('Invalid OAuth scope or ID token audience provided.');
    const nowSeconds = Date.now() / 1000;
    if (typeof claims.iat !== 'number' || typeof claims.exp !== 'number' || claims.exp <= nowSeconds || claims.exp - claims.iat > 3600 || claims.iat > nowSeconds + 60) {
      return refused('Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp values in the JWT claim.');
    }
    return json({ access_token: mint(), expires_in: lifetimeSeconds, token_type: 'Bearer' });
  }

  function mint(): string {
    const token = `ya29.fake-${randomBytes(12).toString('hex')}`;
    expiries.set(token, Date.now() + lifetimeSeconds * 1000);
    issued.push(token);
    return token;
  }

  const upstream = await startScriptedUpstream({ reply: grant });
  tokenUri = `${upstream.url}/token`;
  return {
    tokenUri,
    upstream,
    issued,
    isLive: (token) => (expiries.get(token) ?? 0) > Date.now(),
    revoke: (token) => void expiries.delete(token),
    issue: () => ({ token: mint(), lifetimeSeconds }),
    trust: (clientEmail, publicKey) => void keys.set(clientEmail, publicKey),
    close: () => upstream.close(),
  };
}
