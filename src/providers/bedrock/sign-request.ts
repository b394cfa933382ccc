import type { SignatureV4 } from '@smithy/signature-v4';
import { GatewayError } from '../../errors/gateway-error.js';
import type { AwsCredentialIdentity, AwsCredentialIdentityProvider } from '@smithy/types';

/** Bedrock's SigV4 signing name: the runtime endpoint signs as `bedrock`, not `bedrock-runtime`. */
export const bedrockSigningService = 'bedrock';

/** Where a Bedrock provider's requests get their authorization. */
export interface BedrockCredentials {
  readonly region: string;
  readonly accessKeyId?: string;
  readonly secretAccessKey?: string;
  readonly sessionToken?: string;
  /** A Bedrock API key: sent as a bearer token, no signature. */
  readonly apiKey?: string;
}

/** A call as it will be sent; the signature covers its method, URL, headers and body exactly. */
export interface SignableCall {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | Uint8Array | undefined;
}

/** Headers to add to the call: `authorization`, and with a signature `x-amz-date` (+ `x-amz-security-token`). */
export type SigningHeaders = Readonly<Record<string, string>>;

interface SigningModules {
  readonly SignatureV4: typeof SignatureV4;
  readonly Hash: typeof import('@smithy/hash-node').Hash;
}

// The signing code and the credential chain are loaded on the first Bedrock call, never at start.
let signingModules: Promise<SigningModules> | undefined;
function loadSigningModules(): Promise<SigningModules> {
  signingModules ??= Promise.all([import('@smithy/signature-v4'), import('@smithy/hash-node')]).then(([signing, hashing]) => ({
    SignatureV4: signing.SignatureV4,
    Hash: hashing.Hash,
  }));
  return signingModules;
}

// One chain for every provider without keys: it caches what it finds and refreshes it before it
// expires (instance and container roles, SSO), so each call does not walk the chain again.
let defaultChain: AwsCredentialIdentityProvider | undefined;
async function defaultCredentialChain(): Promise<AwsCredentialIdentityProvider> {
  if (defaultChain === undefined) {
    const { defaultProvider } = await import('@aws-sdk/credential-provider-node');
    defaultChain ??= defaultProvider();
  }
  return defaultChain;
}

function staticCredentials(credentials: BedrockCredentials): AwsCredentialIdentity | undefined {
  if (credentials.accessKeyId === undefined || credentials.secretAccessKey === undefined) return undefined;
  return {
    accessKeyId: credentials.accessKeyId,
    secretAccessKey: credentials.secretAccessKey,
    ...(credentials.sessionToken === undefined ? {} : { sessionToken: credentials.sessionToken }),
  };
}

// Signers are kept per region and credential so a call costs one signature, not a new signer.
const signers = new Map<string, Promise<SignatureV4>>();

function signerFor(credentials: BedrockCredentials): Promise<SignatureV4> {
  const fixed = staticCredentials(credentials);
  const cacheKey = `${credentials.region}\n${fixed?.accessKeyId ?? ''}\n${fixed?.secretAccessKey ?? ''}\n${fixed?.sessionToken ?? ''}`;
  let signer = signers.get(cacheKey);
  if (signer === undefined) {
    signer = (async () => {
      const modules = await loadSigningModules();
      return new modules.SignatureV4({
        service: bedrockSigningService,
        region: credentials.region,
        credentials: fixed ?? (await defaultCredentialChain()),
        sha256: modules.Hash.bind(null, 'sha256'),
      });
    })();
    // A failed load is not kept, so the next call tries again.
    signer.catch(() => signers.delete(cacheKey));
    signers.set(cacheKey, signer);
  }
  return signer;
}

/**
 * No credentials were found (or the chain failed): the call fails before anything is sent. The
 * chain's own message can name profiles, roles and hosts, so it goes to the log as the cause only.
 */
function couldNotSign(error: unknown): never {
  throw new GatewayError('upstream_error', 'The gateway could not get AWS credentials to sign the call to its Bedrock upstream.', { cause: error });
}

function queryOf(url: URL): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const [name, value] of url.searchParams) {
    const held = query[name];
    query[name] = held === undefined ? value : Array.isArray(held) ? [...held, value] : [held, value];
  }
  return query;
}

/**
 * The authorization for one Bedrock call. With an API key it is a bearer token and nothing is
 * signed; otherwise a SigV4 signature (service `bedrock`) over the call exactly as it will be
 * sent, the `host` header included, as the AWS SDK signs it. Credentials never leave this function
 * but as the signature (and the session token AWS requires in its own header).
 */
export async function signBedrockCall(call: SignableCall, credentials: BedrockCredentials, signingDate?: Date): Promise<SigningHeaders> {
  if (credentials.apiKey !== undefined) return { authorization: `Bearer ${credentials.apiKey}` };
  const signer = await signerFor(credentials).catch(couldNotSign);
  const url = new URL(call.url);
  const headers: Record<string, string> = { host: url.host };
  for (const [name, value] of Object.entries(call.headers)) headers[name.toLowerCase()] = value;
  const signed = await signer.sign(
    {
      method: call.method,
      protocol: url.protocol,
      hostname: url.hostname,
      ...(url.port === '' ? {} : { port: Number(url.port) }),
      // The path as it goes on the wire (a model ARN's `:` and `/` already escaped once); the
      // signer escapes it again for the canonical request, as AWS does for every service but S3.
      path: url.pathname,
      query: queryOf(url),
      headers,
      ...(call.body === undefined ? {} : { body: call.body }),
    },
    signingDate === undefined ? {} : { signingDate },
  ).catch(couldNotSign);
  const added: Record<string, string> = {};
  for (const name of ['authorization', 'x-amz-date', 'x-amz-security-token', 'x-amz-content-sha256']) {
    const value = signed.headers[name];
    if (value !== undefined) added[name] = value;
  }
  return added;
}
