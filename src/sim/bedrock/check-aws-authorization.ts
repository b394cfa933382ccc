import type { IncomingHttpHeaders } from 'node:http';

/** Why a call's credential was refused: Bedrock's error type and message. */
export interface AuthorizationRefusal {
  readonly type: string;
  readonly message: string;
}

const signaturePattern = /^AWS4-HMAC-SHA256 Credential=([^/,\s]+)\/(\d{8})\/([a-z0-9-]+)\/([a-z0-9-]+)\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=[0-9a-f]{64}$/;

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Checks that a call carries a credential Bedrock would read: a Bedrock API key as a bearer token,
 * or a SigV4 `Authorization` header scoped to the `bedrock` service with a dated `x-amz-date` that
 * is signed along with `host`. The simulator holds no secret key, so it cannot recompute the
 * signature: any key pair and any well-formed signature pass (test/support's fake Bedrock is the
 * one that recomputes them). Undefined when the call may go on.
 */
export function checkAwsAuthorization(headers: IncomingHttpHeaders): AuthorizationRefusal | undefined {
  const authorization = header(headers, 'authorization');
  if (authorization === undefined || authorization === '') return { type: 'MissingAuthenticationTokenException', message: 'Missing Authentication Token' };
  if (authorization.startsWith('Bearer ')) {
    return authorization.slice('Bearer '.length).trim() === '' ? { type: 'UnrecognizedClientException', message: 'Invalid API Key format: Must start with pre-defined prefix' } : undefined;
  }
  const match = signaturePattern.exec(authorization.trim());
  if (match === null) return { type: 'IncompleteSignatureException', message: 'Authorization header requires Credential, SignedHeaders and Signature.' };
  const [, , scopeDate, , service, signedHeaders] = match as unknown as [string, string, string, string, string, string];
  const amzDate = header(headers, 'x-amz-date');
  if (amzDate === undefined || !/^\d{8}T\d{6}Z$/.test(amzDate)) return { type: 'IncompleteSignatureException', message: 'The request must contain x-amz-date.' };
  if (service !== 'bedrock' || scopeDate !== amzDate.slice(0, 8)) {
    return { type: 'InvalidSignatureException', message: 'Credential should be scoped to a valid date and to the bedrock service.' };
  }
  const signed = signedHeaders.split(';');
  if (!signed.includes('host') || !signed.includes('x-amz-date')) return { type: 'InvalidSignatureException', message: "'Host' and 'X-Amz-Date' must be signed." };
  return undefined;
}
