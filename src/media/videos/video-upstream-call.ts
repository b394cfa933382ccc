import { AbortScope } from '../../call/abort-scope.js';
import { decodeUpstreamError } from '../../providers/decode-upstream-error.js';
import type { ProviderAdapter, UpstreamCall, UpstreamTarget } from '../../providers/provider-adapter.js';
import { parseUpstreamJson } from '../../upstream/parse-upstream-json.js';
import { flattenHeaders, readBodyText, upstreamTransportError } from '../../upstream/upstream-client.js';
import { sendAuthorized } from '../../upstream/send-authorized.js';

/** A job API's JSON answer, with the headers that may carry a poll-after hint. */
export interface VideoUpstreamAnswer {
  readonly body: unknown;
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * Makes one call of a job API and reads its JSON answer whole (these answers are small). An error
 * status becomes the adapter's GatewayError, with the upstream's status class kept and nothing of
 * its URL or credential.
 */
export async function callVideoUpstream(adapter: ProviderAdapter, target: UpstreamTarget, call: UpstreamCall, timeoutMs: number, signal: AbortScope = new AbortScope()): Promise<VideoUpstreamAnswer> {
  const response = await sendAuthorized(adapter, target, { ...call, signal, timeoutMs });
  const text = await readBodyText(response).catch((error: unknown) => {
    throw upstreamTransportError(error, signal);
  });
  const headers = flattenHeaders(response.headers);
  if (response.statusCode >= 400) throw decodeUpstreamError(adapter, target, response.statusCode, text, headers);
  return { body: text === '' ? {} : parseUpstreamJson(text), headers };
}
