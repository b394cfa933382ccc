import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * AWS Signature Version 4 as the service checks it, written out from AWS's own description (IAM
 * User Guide, "Create a signed AWS API request") with node:crypto only, so that the fake Bedrock
 * does not agree with the gateway's signer (the AWS SDK's @smithy/signature-v4) by sharing code.
 * It is held to AWS's published test vectors in fake-bedrock.test.ts.
 */
export interface SigningSecret {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly sessionToken?: string;
}

export interface ReceivedCall {
  readonly method: string;
  /** The request target as it came on the wire: path and query, escaped as sent. */
  readonly target: string;
  /** Header names lower case; repeated headers joined with `,`. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
}

export type Verdict =
  | { readonly ok: true }
  | { readonly ok: false; readonly errorType: string; readonly message: string };

const algorithm = 'AWS4-HMAC-SHA256';

function sha256Hex(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

function hmac(key: string | Buffer, data: string): Buffer {
  return createHmac('sha256', key).update(data, 'utf8').digest();
}

/** RFC 3986 escaping, as SigV4 wants it: everything but unreserved characters. */
function escape(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** The canonical URI of a service other than S3: each segment, as received, escaped once more. */
export function canonicalUri(path: string): string {
  if (path === '' || path === '/') return '/';
  return path.split('/').map(escape).join('/');
}

export function canonicalQuery(query: string): string {
  if (query === '') return '';
  const pairs = query.split('&').filter((pair) => pair !== '').map((pair) => {
    const equals = pair.indexOf('=');
    const name = decodeURIComponent(equals === -1 ? pair : pair.slice(0, equals));
    const value = equals === -1 ? '' : decodeURIComponent(pair.slice(equals + 1).replace(/\+/g, ' '));
    return [escape(name), escape(value)] as const;
  });
  pairs.sort(([nameA, valueA], [nameB, valueB]) => (nameA < nameB ? -1 : nameA > nameB ? 1 : valueA < valueB ? -1 : valueA > valueB ? 1 : 0));
  return pairs.map(([name, value]) => `${name}=${value}`).join('&');
}

export interface Signed {
  readonly canonicalRequest: string;
  readonly stringToSign: string;
  readonly signature: string;
}

/** The signature a call should carry, given the headers it names as signed, its date and scope. */
export function computeSignature(call: ReceivedCall, signedHeaders: readonly string[], amzDate: string, scope: string, secretAccessKey: string): Signed {
  const [path = '/', query = ''] = splitTarget(call.target);
  const canonicalHeaders = signedHeaders.map((name) => `${name}:${(call.headers[name] ?? '').trim().replace(/\s+/g, ' ')}\n`).join('');
  const payloadHash = call.headers['x-amz-content-sha256'] ?? sha256Hex(call.body);
  const canonicalRequest = [call.method, canonicalUri(path), canonicalQuery(query), canonicalHeaders, signedHeaders.join(';'), payloadHash].join('\n');
  const stringToSign = [algorithm, amzDate, scope, sha256Hex(canonicalRequest)].join('\n');
  const [date = '', region = '', service = '', terminator = ''] = scope.split('/');
  const key = hmac(hmac(hmac(hmac(`AWS4${secretAccessKey}`, date), region), service), terminator);
  return { canonicalRequest, stringToSign, signature: createHmac('sha256', key).update(stringToSign, 'utf8').digest('hex') };
}

function splitTarget(target: string): [string, string] {
  const mark = target.indexOf('?');
  return mark === -1 ? [target, ''] : [target.slice(0, mark), target.slice(mark + 1)];
}

interface Authorization {
  readonly accessKeyId: string;
  readonly scope: string;
  readonly signedHeaders: readonly string[];
  readonly signature: string;
}

function parseAuthorization(value: string): Authorization | undefined {
  const match = /^AWS4-HMAC-SHA256 Credential=([^/,\s]+)\/([^,\s]+), ?SignedHeaders=([^,\s]+), ?Signature=([0-9a-f]{64})$/.exec(value.trim());
  if (match === null) return undefined;
  const [, accessKeyId = '', scope = '', signedHeaders = '', signature = ''] = match;
  return { accessKeyId, scope, signedHeaders: signedHeaders.split(';'), signature };
}

const signatureMismatch =
  'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.';

/**
 * Checks a call's SigV4 signature for one service and region the way AWS does: the credential is
 * known, the scope is today's for this region and service, `host` and `x-amz-date` are signed,
 * the date is within five minutes of now, and the signature recomputed from the call matches.
 */
export function verifySigV4(call: ReceivedCall, secret: SigningSecret, region: string, service: string, now: Date = new Date()): Verdict {
  const header = call.headers['authorization'];
  if (header === undefined) return { ok: false, errorType: 'MissingAuthenticationTokenException', message: 'Missing Authentication Token' };
  const authorization = parseAuthorization(header);
  if (authorization === undefined) return { ok: false, errorType: 'IncompleteSignatureException', message: 'Authorization header requires Credential, SignedHeaders and Signature.' };
  if (authorization.accessKeyId !== secret.accessKeyId) {
    return { ok: false, errorType: 'UnrecognizedClientException', message: 'The security token included in the request is invalid.' };
  }
  const amzDate = call.headers['x-amz-date'];
  if (amzDate === undefined || !/^\d{8}T\d{6}Z$/.test(amzDate)) return { ok: false, errorType: 'IncompleteSignatureException', message: 'The request must contain x-amz-date.' };
  const [scopeDate, scopeRegion, scopeService, terminator] = authorization.scope.split('/');
  if (scopeDate !== amzDate.slice(0, 8) || scopeRegion !== region || scopeService !== service || terminator !== 'aws4_request') {
    return { ok: false, errorType: 'InvalidSignatureException', message: `Credential should be scoped to a valid region and service (${region}/${service}).` };
  }
  if (!authorization.signedHeaders.includes('host') || !authorization.signedHeaders.includes('x-amz-date')) {
    return { ok: false, errorType: 'InvalidSignatureException', message: "'Host' and 'X-Amz-Date' must be signed." };
  }
  const signedAt = Date.parse(`${amzDate.slice(0, 4)}-${amzDate.slice(4, 6)}-${amzDate.slice(6, 8)}T${amzDate.slice(9, 11)}:${amzDate.slice(11, 13)}:${amzDate.slice(13, 15)}Z`);
  if (Math.abs(now.getTime() - signedAt) > 5 * 60_000) return { ok: false, errorType: 'InvalidSignatureException', message: 'Signature expired.' };
  if (secret.sessionToken !== undefined && call.headers['x-amz-security-token'] !== secret.sessionToken) {
    return { ok: false, errorType: 'UnrecognizedClientException', message: 'The security token included in the request is invalid.' };
  }
  // A declared payload hash is signed in place of the body's, so the body must hash to it.
  const declaredHash = call.headers['x-amz-content-sha256'];
  if (declaredHash !== undefined && declaredHash !== sha256Hex(call.body)) {
    return { ok: false, errorType: 'InvalidSignatureException', message: "The provided 'x-amz-content-sha256' header does not match what was computed." };
  }
  const expected = computeSignature(call, authorization.signedHeaders, amzDate, authorization.scope, secret.secretAccessKey).signature;
  const matches = timingSafeEqual(Buffer.from(expected), Buffer.from(authorization.signature));
  return matches ? { ok: true } : { ok: false, errorType: 'InvalidSignatureException', message: signatureMismatch };
}
