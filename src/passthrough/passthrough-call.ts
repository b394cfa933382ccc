import type { AttemptContext } from '../call/attempt-context.js';
import type { CallCompletion, CallOutcome } from '../call/call-outcome.js';
import { commitOnFirstChunk } from '../call/commit-stream.js';
import { StreamedCallScope } from '../call/streamed-call-scope.js';
import { decodeUpstreamError } from '../providers/decode-upstream-error.js';
import { flattenHeaders, readBodyText, upstreamTransportError } from '../upstream/upstream-client.js';
import { sendAuthorized } from '../upstream/send-authorized.js';
import { parseUpstreamJson } from '../upstream/parse-upstream-json.js';
import { isUpstreamErrorBody } from '../upstream/upstream-error-body.js';
import { preparePassthroughBody } from './prepare-body.js';
import { relayStream, type RelayOutcome } from './stream-relay.js';
import { usageFromBytes } from './usage-from-bytes.js';

/**
 * Same wire format on both sides: the client's body goes upstream unchanged but for `model`, and
 * the upstream's bytes come back unchanged; a tap reads usage from them on the way.
 */
export async function passthroughCall(
  context: AttemptContext,
  rawBody: string,
  parsedBody: Readonly<Record<string, unknown>>,
  /** The bytes `rawBody` was decoded from, when the client sent exactly that text. */
  rawBytes?: Buffer,
): Promise<CallOutcome> {
  const { format, adapter, route, text: generation } = context;
  const prepared = preparePassthroughBody(format.name, rawBody, parsedBody, route.target.model);
  // Upstreams whose body differs slightly from the client's (the model in the URL) rewrite it; others send it as prepared.
  const upstreamText = generation.passthroughBody === undefined ? prepared.text : generation.passthroughBody(format.name, prepared.text, parsedBody, route.target, context.forwarded);
  const scope = new StreamedCallScope(context.clientSignal, context.usageWaitMs);
  const abort = scope.upstream;
  const response = await sendAuthorized(adapter, route.target, {
    url: generation.passthroughUrl(format.name, route.target, parsedBody.stream === true),
    headers: adapter.upstreamHeaders(route.target, context.forwarded),
    // An unchanged body goes on as the bytes received: re-encoding a 500 KB conversation costs 0.7 ms.
    body: rawBytes !== undefined && upstreamText === rawBody ? rawBytes : upstreamText,
    signal: abort,
    timeoutMs: context.timeoutMs,
    idleTimeoutMs: context.idleTimeoutMs,
    maxAnswerBytes: context.maxAnswerBytes,
  });
  if (response.statusCode >= 400) {
    const text = await readBodyText(response).catch(() => '');
    throw decodeUpstreamError(adapter, route.target, response.statusCode, text, flattenHeaders(response.headers));
  }
  const contentType = String(response.headers['content-type'] ?? 'application/json');
  // A stream in another framing than SSE (the AWS event stream) is one by its adapter's word, not its content type.
  const streamed = parsedBody.stream === true && (generation.createEventReader !== undefined || contentType.includes('text/event-stream'));
  if (!streamed) {
    const bytes = await response.body.bytes().catch((error: unknown) => {
      throw upstreamTransportError(error, abort);
    });
    const usage = usageFromBytes(context, bytes);
    // Every real answer reports usage: only an answer without it pays for a look at the whole body.
    if (usage === undefined) assertAnswerBody(context, bytes, flattenHeaders(response.headers));
    const settled: CallCompletion = { usage, completed: true, status: 200 };
    return { contentType, body: bytes, completion: Promise.resolve(settled), settled };
  }
  const tap = format.createUsageTap();
  let resolveCompletion: (completion: CallCompletion) => void = () => {};
  const completion = new Promise<CallCompletion>((resolve) => (resolveCompletion = resolve));
  const relay: RelayOutcome = { failed: false };
  const body = await commitOnFirstChunk(
    relayStream(response, tap, context, prepared.injectedUsageChunk, scope, relay, generation.createEventReader),
    // A stream that ended with the gateway's error event was not delivered whole.
    (completed) =>
      resolveCompletion({
        usage: tap.usage(),
        completed: completed && !relay.failed,
        status: 200,
        ...(relay.deliveredOutput === undefined ? {} : { deliveredOutput: relay.deliveredOutput }),
      }),
    // The relay itself reads on for usage when the client leaves, then stops the upstream call.
    () => {},
  ).catch((error: unknown) => {
    throw upstreamTransportError(error, abort);
  });
  return { contentType: 'text/event-stream; charset=utf-8', body, completion };
}

/**
 * A 200 that is no answer: a body cut short (not JSON) or an error body sent with a success status
 * (some proxies and compatible servers do). Relaying either would hand the client a "success" its
 * SDK cannot read; as an error it is a 502 that may fall back to the next route.
 */
function assertAnswerBody(context: AttemptContext, bytes: Buffer, headers: Record<string, string>): void {
  const text = bytes.toString('utf8');
  if (isUpstreamErrorBody(parseUpstreamJson(text, 'upstream_malformed_answer'))) throw decodeUpstreamError(context.adapter, context.route.target, 502, text, headers);
}
