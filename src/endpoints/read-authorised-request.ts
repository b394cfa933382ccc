import type { IncomingMessage } from 'node:http';
import type { FormatName } from '../ir/format-name.js';
import { assertEndpointAllowed } from '../keys/key-scope.js';
import type { EndpointFamily } from '../keys/endpoint-family.js';
import type { ApiKeyRecord } from '../keys/api-key.js';
import { anthropicVersion } from '../http/anthropic-version.js';
import type { GatewayServices } from './gateway-services.js';
import { assertJsonContentType, readRequestBody } from '../http/read-request-body.js';
import { nodeRequestHeaders, type HeaderSource } from '../http/request-headers.js';

/** What every JSON POST endpoint knows once the caller is admitted and the body is read. */
export interface AuthorisedRequest {
  readonly headers: HeaderSource;
  readonly key: ApiKeyRecord | undefined;
  /** Client headers to hand to an upstream of the same family. */
  readonly forwarded: Record<string, string>;
  readonly rawBody: string;
  readonly rawBytes: Buffer;
}

/**
 * The common start of a JSON POST: authenticate, check the key's endpoint scope, refuse a body
 * that is not JSON (415) or too large (413), validate the format's own headers, read the body.
 */
export async function readAuthorisedRequest(
  incoming: IncomingMessage,
  services: GatewayServices,
  family: EndpointFamily,
  format: FormatName,
): Promise<AuthorisedRequest> {
  const headers = nodeRequestHeaders(incoming);
  const key = await services.authenticator.authenticate(headers);
  assertEndpointAllowed(key, family);
  assertJsonContentType(headers.get('content-type') ?? undefined);
  const forwarded = forwardedHeaders(headers, format);
  const body = await readRequestBody(incoming, services.config.server.body_limit_bytes);
  return { headers, key, forwarded, rawBody: body.text, rawBytes: body.bytes };
}

/** Client headers that carry meaning for an upstream of the same family (Anthropic's version and betas). */
function forwardedHeaders(headers: HeaderSource, format: FormatName): Record<string, string> {
  if (format !== 'messages') return {};
  const forwarded: Record<string, string> = {};
  const version = anthropicVersion(headers);
  if (version !== undefined) forwarded['anthropic-version'] = version;
  const beta = headers.get('anthropic-beta');
  if (beta !== null) forwarded['anthropic-beta'] = beta;
  return forwarded;
}
