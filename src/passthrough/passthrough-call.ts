import { GatewayError } from '../errors/gateway-error.js';
import type { UsageTap } from '../formats/client-format.js';
import type { Usage } from '../ir/usage.js';
import type { AttemptContext } from '../routing/attempt-context.js';
import type { CallCompletion, CallOutcome } from '../routing/call-outcome.js';
import { commitOnFirstChunk } from '../routing/commit-stream.js';
import { createSseReader } from '../upstream/sse-reader.js';
import { flattenHeaders, readBodyText, sendUpstream, upstreamTransportError, type UpstreamResponse } from '../upstream/upstream-client.js';
import { preparePassthroughBody } from './prepare-body.js';
import { findTrailingTopLevelValue } from './rewrite-body.js';
import { createSseEventSplitter } from './sse-event-splitter.js';

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
  const { format, adapter, route } = context;
  const prepared = preparePassthroughBody(format.name, rawBody, parsedBody, route.target.model);
  const abort = context.clientSignal.child();
  const response = await sendUpstream({
    url: adapter.passthroughUrl(format.name, route.target),
    headers: adapter.upstreamHeaders(route.target, context.forwarded),
    // An unchanged body goes on as the bytes received: re-encoding a 500 KB conversation costs 0.7 ms.
    body: rawBytes !== undefined && prepared.text === rawBody ? rawBytes : prepared.text,
    signal: abort,
    timeoutMs: context.timeoutMs,
  });
  if (response.statusCode >= 400) {
    const text = await readBodyText(response).catch(() => '');
    throw adapter.decodeError(response.statusCode, text, flattenHeaders(response.headers));
  }
  const contentType = String(response.headers['content-type'] ?? 'application/json');
  if (parsedBody.stream !== true || !contentType.includes('text/event-stream')) {
    const bytes = await response.body.bytes().catch((error: unknown) => {
      throw upstreamTransportError(error, abort);
    });
    const usage = usageFromBytes(context, bytes);
    return { contentType, body: bytes, completion: Promise.resolve({ usage, completed: true, status: 200 }) };
  }
  const tap = format.createUsageTap();
  let resolveCompletion: (completion: CallCompletion) => void = () => {};
  const completion = new Promise<CallCompletion>((resolve) => (resolveCompletion = resolve));
  const relayed = prepared.injectedUsageChunk ? relayWithoutUsageEvent(response, tap) : relay(response, tap);
  const chunks = endingWithErrorIfCut(relayed, tap, context);
  const body = await commitOnFirstChunk(
    chunks,
    (completed) => resolveCompletion({ usage: tap.usage(), completed, status: 200 }),
    () => abort.abort(),
  ).catch((error: unknown) => {
    throw upstreamTransportError(error, abort);
  });
  return { contentType: 'text/event-stream; charset=utf-8', body, completion };
}

/** Reads usage from the `usage` member only, so the body is never parsed whole. */
function usageFromBytes(context: AttemptContext, bytes: Buffer): Usage | undefined {
  const text = bytes.toString('utf8');
  const range = findTrailingTopLevelValue(text, 'usage');
  if (range === undefined) return undefined;
  try {
    return context.format.usageFromBody({ usage: JSON.parse(text.slice(range.start, range.end)) as unknown });
  } catch {
    return undefined;
  }
}

/**
 * An upstream that stops before its format's last event (connection dropped, server crashed)
 * leaves the client waiting for an end that never comes: the relay then adds the format's own
 * error event, so the client knows the answer is incomplete.
 */
async function* endingWithErrorIfCut(
  chunks: AsyncGenerator<Uint8Array, void, void>,
  tap: UsageTap,
  context: AttemptContext,
): AsyncGenerator<Uint8Array, void, void> {
  let failure: GatewayError | undefined;
  let sentAnything = false;
  try {
    for await (const chunk of chunks) {
      sentAnything = true;
      yield chunk;
    }
  } catch (error) {
    if (!sentAnything) throw error;
    failure = upstreamTransportError(error);
  }
  if (tap.ended()) return;
  failure ??= new GatewayError('upstream_invalid_response', 'The upstream ended the stream before it was complete.');
  yield encoder.encode(context.format.encodeStreamError(failure, context.encode.requestId));
}

async function* relay(response: UpstreamResponse, tap: UsageTap): AsyncGenerator<Uint8Array, void, void> {
  const reader = createSseReader((event) => tap.observe(event.event, event.data));
  for await (const chunk of response.body.chunks()) {
    reader.push(chunk);
    yield chunk;
  }
  reader.flush();
}

const encoder = new TextEncoder();

/** Relays whole events, dropping the usage-only chunk the gateway asked for on its own account. */
async function* relayWithoutUsageEvent(response: UpstreamResponse, tap: UsageTap): AsyncGenerator<Uint8Array, void, void> {
  const decoder = new TextDecoder();
  const splitter = createSseEventSplitter();
  const reader = createSseReader((event) => tap.observe(event.event, event.data));
  for await (const chunk of response.body.chunks()) {
    reader.push(chunk);
    const kept = splitter.push(decoder.decode(chunk, { stream: true })).filter((event) => !isUsageOnlyChunk(event));
    if (kept.length > 0) yield encoder.encode(kept.join(''));
  }
  reader.flush();
  const rest = splitter.flush().filter((event) => !isUsageOnlyChunk(event));
  if (rest.length > 0) yield encoder.encode(rest.join(''));
}

function isUsageOnlyChunk(eventText: string): boolean {
  return eventText.includes('"choices":[]') && eventText.includes('"usage":{');
}

