import type { FormatName } from '../../ir/format-name.js';
import { anthropicVersion } from '../../http/anthropic-version.js';
import { assertJsonContentType, readRequestBody } from '../../http/read-request-body.js';
import type { HeaderSource } from '../../http/request-headers.js';
import type { MeteredCall } from './metered-call-state.js';

/** A JSON body as read, with the client headers an upstream of the same family is handed. */
export interface JsonRequest {
  /** Client headers to hand to an upstream of the same family. */
  readonly forwarded: Record<string, string>;
  readonly rawBody: string;
  readonly rawBytes: Buffer;
}

/**
 * The `read` step of a JSON POST: refuse a body that is not JSON (415) or too large (413),
 * validate the format's own headers, read the body.
 */
export async function readJsonRequest(call: MeteredCall, format: FormatName): Promise<JsonRequest> {
  assertJsonContentType(call.headers.get('content-type') ?? undefined);
  const forwarded = forwardedHeaders(call.headers, format);
  const body = await readRequestBody(call.exchange.incoming, call.services.config.server.body_limit_bytes);
  return { forwarded, rawBody: body.text, rawBytes: body.bytes };
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
